# Sourced by tools/look_draw_bench.sh and tools/look_draw_cpu.sh: the alternation of their runs.
# look_rounds OLD NEW ROUNDS RUN [FLAG...]: ROUNDS rounds of three runs, the old build, the new build
# and the new build with look=studio (the old look with the new wings), so the look's share and the
# wings' share show apart. Each run calls the shell function RUN with the run's label (old, new,
# new-studio), its murmur, the load average then, and its flags: --set look=studio for new-studio,
# then FLAG... (the caller's camera flags).
look_rounds() {
    lr_old=$1; lr_new=$2; lr_rounds=$3; lr_run=$4
    shift 4
    lr_r=0
    while [ "$lr_r" -lt "$lr_rounds" ]; do
        for lr_b in old new new-studio; do
            lr_load=$(cut -d' ' -f1-3 /proc/loadavg)
            case $lr_b in
                old) "$lr_run" old "$lr_old" "$lr_load" "$@" ;;
                new) "$lr_run" new "$lr_new" "$lr_load" "$@" ;;
                new-studio) "$lr_run" new-studio "$lr_new" "$lr_load" --set look=studio "$@" ;;
            esac
        done
        lr_r=$((lr_r + 1))
    done
}
