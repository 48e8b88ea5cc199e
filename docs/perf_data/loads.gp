L_main = "load average 10.1-11.7"
L_ns = "load average 10.1-11.9"
L_py = "load average 10.1-11.7"
L_busy = "load average 10.1-11.4"
