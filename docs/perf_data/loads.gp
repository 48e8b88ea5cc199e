L_main = "load average 1.7-2.1"
L_ns = "load average 1.7-2.1"
L_py = "load average 1.8-2.1"
L_busy = "load average 1.7-2.1"
