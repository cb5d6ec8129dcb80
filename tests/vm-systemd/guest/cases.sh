# shellcheck shell=bash disable=SC2034 # sourced by main.sh, which uses what it sets
# The systemd driver's cases (issue 21), each against $RT with --systemd-cgroup; sourced by
# main.sh. CASES lists them in the order they run. Ids and unit names carry $RT_NAME, so the
# runc and ctrun rounds share nothing.

CASES="run default_slice bad_path create_start exec limits update pause_resume kill
delete_force nested_slice twin_names existing_unit failed_unit killed_create unit_without_cgroup oom_group
oom_group_update delete_race rootless containerd shim_config podman podman_config criu_restore
criu_leave_running podman_checkpoint"

SLEEP='["sleep", "1000"]'

# KNOWN_<runtime>: the cases a runtime is known not to pass, with why; its round reports them
# `xfail` (and a pass there as a failure: the list must be kept true).
# Debian's runc 1.1.5 ignores systemd's UnitExists, so a second container joins the live unit
# of its name (twin_names, existing_unit) and, a failed unit having no cgroup, its init stays
# in the caller's cgroup (failed_unit); runc 1.2 refuses or resets as the issue asks. systemd
# 252 writes memory.oom.group back to 0 when an update makes it apply the unit's properties
# again (scopes take no OOMPolicy before 253), and neither runtime puts the value back
# (oom_group_update). runc records nothing of a create before its unit starts: `delete
# --force` of a killed create's id finds nothing, and its failed unit stays
# (unit_without_cgroup).
KNOWN_runc="twin_names existing_unit failed_unit unit_without_cgroup oom_group_update"
KNOWN_ctrun="oom_group_update"

# run: the init is in prefix-name.scope under the slice; its exit code is run's; the unit
# and its cgroup are gone afterwards.
case_run() {
	local id=$RT_NAME-run b
	b=$(bundle b "system.slice:ctrt:$id" '["sh", "-c", "cat /proc/self/cgroup; exit 7"]')
	run_rc "run" 7 sd run --bundle "$b" "$id"
	expect_eq "cgroup inside" "$(out)" "0::/system.slice/ctrt-$id.scope"
	wait_until "ctrt-$id.scope removed" unit_gone "ctrt-$id.scope"
	[ ! -e "$CG/system.slice/ctrt-$id.scope" ] || fail "$CG/system.slice/ctrt-$id.scope left"
}

# An empty slice is system.slice for root.
case_default_slice() {
	local id=$RT_NAME-ds b
	b=$(bundle b ":ctrt:$id" '["cat", "/proc/self/cgroup"]')
	run_rc "run" 0 sd run --bundle "$b" "$id"
	expect_eq "cgroup inside" "$(out)" "0::/system.slice/ctrt-$id.scope"
}

# A cgroupsPath not of the form slice:prefix:name is refused before anything is made.
case_bad_path() {
	local id=$RT_NAME-bad b
	b=$(bundle b "ctrt-$id" '["true"]')
	run_rc "run" nonzero sd run --bundle "$b" "$id"
	expect_match "the error names the path" "$(err)" "ctrt-$id"
	rt state "$id" >/dev/null 2>&1 && fail "$id still known to state"
	unit_gone "ctrt-$id.scope" || fail "unit ctrt-$id.scope made"
}

# create/start: the unit as runc makes it, the init in it before start, then the lifecycle.
case_create_start() {
	local id=$RT_NAME-cs unit b pid
	unit=ctrt-$RT_NAME-cs.scope
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP")
	run_rc "create" 0 sd create --bundle "$b" "$id"
	expect_eq "status after create" "$(status_of "$id")" created
	pid=$(pid_of "$id")
	expect_eq "init's cgroup" "$(cgroup_of_pid "$pid")" "/system.slice/$unit"
	expect_eq "ActiveState" "$(unit_prop "$unit" ActiveState)" active
	expect_eq "Slice" "$(unit_prop "$unit" Slice)" system.slice
	expect_eq "ControlGroup" "$(unit_prop "$unit" ControlGroup)" "/system.slice/$unit"
	expect_eq "Delegate" "$(unit_prop "$unit" Delegate)" yes
	expect_eq "DefaultDependencies" "$(unit_prop "$unit" DefaultDependencies)" no
	local acct
	for acct in CPUAccounting MemoryAccounting IOAccounting TasksAccounting; do
		expect_eq "$acct" "$(unit_prop "$unit" "$acct")" yes
	done
	grep -qx "$pid" "$CG/system.slice/$unit/cgroup.procs" || fail "init $pid not in $unit's cgroup.procs"
	run_rc "start" 0 sd start "$id"
	wait_until "running" status_is "$id" running
	run_rc "ps" 0 sd ps "$id"
	expect_match "ps lists the init" "$(out)" "sleep"
	run_rc "kill" 0 sd kill "$id" KILL
	wait_until "stopped" status_is "$id" stopped
	run_rc "delete" 0 sd delete "$id"
	wait_until "$unit removed" unit_gone "$unit"
	[ ! -e "$CG/system.slice/$unit" ] || fail "cgroup of $unit left"
}

# exec joins the unit's cgroup; its exit code comes back.
case_exec() {
	local id=$RT_NAME-ex b
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP")
	create_started "$id" "$b" || return
	run_rc "exec cat" 0 sd exec "$id" cat /proc/self/cgroup
	expect_eq "exec's cgroup" "$(out)" "0::/system.slice/ctrt-$id.scope"
	run_rc "exec exit 3" 3 sd exec "$id" sh -c 'exit 3'
	run_rc "delete --force" 0 sd delete --force "$id"
}

# delete --force kills the init, which empties the scope: systemd then stops it and removes
# its directory on its own while delete goes on. Rounds of it (the race is short): every
# delete succeeds and leaves no unit, so the next create of the id works.
DELETE_RACE_ROUNDS=30
case_delete_race() {
	local id=$RT_NAME-dr b i
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP")
	for i in $(seq "$DELETE_RACE_ROUNDS"); do
		create_started "$id" "$b" || return
		run_rc "delete --force, round $i" 0 sd delete --force "$id" || return
	done
	wait_until "ctrt-$id.scope removed" unit_gone "ctrt-$id.scope"
}

# LIMITS: the resources the limits and update cases set at create.
LIMITS='.linux.resources = {"memory": {"limit": 67108864, "reservation": 16777216},
	"cpu": {"shares": 512, "quota": 50000, "period": 100000, "cpus": "0"},
	"pids": {"limit": 100}}'

# The limits read back from systemd and from the cgroup files inside.
case_limits() {
	local id=$RT_NAME-lim unit b
	unit=ctrt-$id.scope
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP" "$WITH_CGROUPNS | $LIMITS")
	create_started "$id" "$b" || return
	expect_eq "MemoryMax" "$(unit_prop "$unit" MemoryMax)" 67108864
	expect_eq "MemoryLow" "$(unit_prop "$unit" MemoryLow)" 16777216
	expect_eq "CPUQuotaPerSecUSec" "$(unit_prop "$unit" CPUQuotaPerSecUSec)" 500ms
	expect_eq "CPUQuotaPeriodUSec" "$(unit_prop "$unit" CPUQuotaPeriodUSec)" 100ms
	expect_eq "CPUWeight" "$(unit_prop "$unit" CPUWeight)" 20
	expect_eq "TasksMax" "$(unit_prop "$unit" TasksMax)" 100
	expect_eq "AllowedCPUs" "$(unit_prop "$unit" AllowedCPUs)" 0
	expect_eq "memory.max inside" "$(inside "$id" cat /sys/fs/cgroup/memory.max)" 67108864
	expect_eq "memory.low inside" "$(inside "$id" cat /sys/fs/cgroup/memory.low)" 16777216
	expect_eq "cpu.max inside" "$(inside "$id" cat /sys/fs/cgroup/cpu.max)" "50000 100000"
	expect_eq "cpu.weight inside" "$(inside "$id" cat /sys/fs/cgroup/cpu.weight)" 20
	expect_eq "pids.max inside" "$(inside "$id" cat /sys/fs/cgroup/pids.max)" 100
	expect_eq "cpuset.cpus inside" "$(inside "$id" cat /sys/fs/cgroup/cpuset.cpus)" 0
}

# update changes the unit's properties and the files, and keeps what it was not given.
case_update() {
	local id=$RT_NAME-up unit b
	unit=ctrt-$id.scope
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP" "$WITH_CGROUPNS | $LIMITS")
	create_started "$id" "$b" || return
	run_rc "update" 0 sd update --memory 134217728 --pids-limit 200 --cpu-quota 25000 "$id"
	expect_eq "MemoryMax" "$(unit_prop "$unit" MemoryMax)" 134217728
	expect_eq "TasksMax" "$(unit_prop "$unit" TasksMax)" 200
	expect_eq "CPUQuotaPerSecUSec" "$(unit_prop "$unit" CPUQuotaPerSecUSec)" 250ms
	expect_eq "MemoryLow kept" "$(unit_prop "$unit" MemoryLow)" 16777216
	expect_eq "memory.max inside" "$(inside "$id" cat /sys/fs/cgroup/memory.max)" 134217728
	expect_eq "pids.max inside" "$(inside "$id" cat /sys/fs/cgroup/pids.max)" 200
	expect_eq "cpu.max inside" "$(inside "$id" cat /sys/fs/cgroup/cpu.max)" "25000 100000"
	expect_eq "memory.low kept inside" "$(inside "$id" cat /sys/fs/cgroup/memory.low)" 16777216
	expect_eq "cpu.weight kept inside" "$(inside "$id" cat /sys/fs/cgroup/cpu.weight)" 20
}

frozen_is() { # CGROUP 0|1
	grep -qx "frozen $2" "$CG/$1/cgroup.events"
}

# pause/resume freeze and thaw the unit's cgroup.
case_pause_resume() {
	local id=$RT_NAME-pr b cg
	cg=system.slice/ctrt-$id.scope
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP")
	create_started "$id" "$b" || return
	run_rc "pause" 0 sd pause "$id"
	expect_eq "status after pause" "$(status_of "$id")" paused
	wait_until "$cg frozen" frozen_is "$cg" 1
	expect_eq "ActiveState while paused" "$(unit_prop "ctrt-$id.scope" ActiveState)" active
	run_rc "resume" 0 sd resume "$id"
	expect_eq "status after resume" "$(status_of "$id")" running
	wait_until "$cg thawed" frozen_is "$cg" 0
	run_rc "exec after resume" 0 sd exec "$id" true
}

# kill --all reaches the exec'd processes too; the unit goes with the last of them.
case_kill() {
	local id=$RT_NAME-kill b pids p
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP")
	create_started "$id" "$b" || return
	run_rc "exec -d" 0 sd exec -d "$id" sleep 2000
	pids=$(cat "$CG/system.slice/ctrt-$id.scope/cgroup.procs")
	expect_eq "processes in the unit" "$(echo "$pids" | wc -l)" 2
	run_rc "kill --all" 0 sd kill --all "$id" KILL
	wait_until "stopped" status_is "$id" stopped
	for p in $pids; do
		wait_until "pid $p gone" pid_gone "$p"
	done
	run_rc "delete" 0 sd delete "$id"
	wait_until "unit removed" unit_gone "ctrt-$id.scope"
}

# expect_gone ID PID WHEN: container ID of system.slice is gone, WHEN: not in state, its
# init PID ended, its unit and the unit's cgroup removed.
expect_gone() {
	rt state "$1" >/dev/null 2>&1 && fail "$1 still known to state $3"
	wait_until "init $2 gone $3" pid_gone "$2"
	wait_until "ctrt-$1.scope removed $3" unit_gone "ctrt-$1.scope"
	[ ! -e "$CG/system.slice/ctrt-$1.scope" ] || fail "cgroup of ctrt-$1.scope left $3"
}

# delete --force of a running container stops its unit.
case_delete_force() {
	local id=$RT_NAME-df b pid
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP")
	create_started "$id" "$b" || return
	pid=$(pid_of "$id")
	run_rc "delete --force" 0 sd delete --force "$id"
	expect_gone "$id" "$pid" "after delete --force"
}

# A slice name with dashes nests: ctrtxR-a-b.slice is under ctrtxR-a.slice under ctrtxR.slice.
case_nested_slice() {
	local id=$RT_NAME-nest s=ctrtx$RT_NAME b pid
	b=$(bundle b "$s-a-b.slice:ctrt:$id" "$SLEEP")
	run_rc "create" 0 sd create --bundle "$b" "$id"
	pid=$(pid_of "$id")
	expect_eq "init's cgroup" "$(cgroup_of_pid "$pid")" \
		"/$s.slice/$s-a.slice/$s-a-b.slice/ctrt-$id.scope"
	expect_eq "Slice" "$(unit_prop "ctrt-$id.scope" Slice)" "$s-a-b.slice"
	expect_eq "parent slice" "$(unit_prop "$s-a-b.slice" Slice)" "$s-a.slice"
	expect_eq "parent slice active" "$(unit_prop "$s-a.slice" ActiveState)" active
}

# The runtime's error holds what systemd answers another client (systemd-run) that starts a
# unit of that name: systemd's words, verbatim.
expect_systemd_error() { # UNIT
	local said
	said=$(systemd-run --quiet --scope --unit="$1" true 2>&1 </dev/null |
		sed -n 's/^Failed to start transient scope unit: //p')
	[ -n "$said" ] || fail "systemd-run did not fail to start $1"
	grep -qF -- "$said" "$CASE_DIR/err" || fail "error: got '$(err)', want systemd's '$said'"
}

# Two containers whose cgroupsPath names are one in different slices: one unit name, so the
# second is refused with systemd's words and leaves nothing; the first is untouched.
case_twin_names() {
	local s=ctrtx$RT_NAME name=$RT_NAME-twin a b
	a=$(bundle a "$s-t1.slice:ctrt:$name" "$SLEEP")
	b=$(bundle b "$s-t2.slice:ctrt:$name" "$SLEEP")
	run_rc "create the first" 0 sd create --bundle "$a" "$name-a"
	run_rc "create the second" nonzero sd create --bundle "$b" "$name-b"
	expect_systemd_error "ctrt-$name.scope"
	rt state "$name-b" >/dev/null 2>&1 && fail "$name-b left in state"
	expect_eq "first still created" "$(status_of "$name-a")" created
	expect_eq "unit still in the first slice" "$(unit_prop "ctrt-$name.scope" Slice)" "$s-t1.slice"
	run_rc "delete the first" 0 sd delete --force "$name-a"
	wait_until "unit removed" unit_gone "ctrt-$name.scope"
	run_rc "the second once the name is free" 0 sd create --bundle "$b" "$name-b"
	expect_eq "unit in the second slice" "$(unit_prop "ctrt-$name.scope" Slice)" "$s-t2.slice"
}

# A live unit of the container's name (not the runtime's) is neither reused nor touched.
case_existing_unit() {
	local id=$RT_NAME-exu b holder
	systemd-run --quiet --scope --unit="ctrt-$id" sleep 1000 </dev/null >/dev/null 2>&1 &
	holder=$!
	wait_until "ctrt-$id.scope made by systemd-run" unit_state_is "ctrt-$id.scope" active
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP")
	run_rc "create" nonzero sd create --bundle "$b" "$id"
	expect_systemd_error "ctrt-$id.scope"
	rt state "$id" >/dev/null 2>&1 && fail "$id left in state"
	expect_eq "the unit still active" "$(unit_prop "ctrt-$id.scope" ActiveState)" active
	kill -0 "$holder" 2>/dev/null || fail "systemd-run's process is gone"
	systemctl stop "ctrt-$id.scope"
	wait "$holder" 2>/dev/null
}

# A failed unit of the name (a leftover) is reset and the container made in its place.
case_failed_unit() {
	local id=$RT_NAME-fu b pid
	systemd-run --quiet --scope --unit="ctrt-$id" -p RuntimeMaxSec=1 sleep 1000 </dev/null >/dev/null 2>&1
	wait_until "ctrt-$id.scope failed" unit_state_is "ctrt-$id.scope" failed
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP")
	run_rc "create" 0 sd create --bundle "$b" "$id"
	pid=$(pid_of "$id")
	expect_eq "ActiveState" "$(unit_prop "ctrt-$id.scope" ActiveState)" active
	expect_eq "init's cgroup" "$(cgroup_of_pid "$pid")" "/system.slice/ctrt-$id.scope"
}

# A create killed while its createRuntime hook runs (the unit exists by then) leaves no unit,
# no cgroup and no process once delete --force is done.
case_killed_create() {
	local id=$RT_NAME-kc b marker=$CASE_DIR/hook-pid creator hook
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP" \
		".hooks.createRuntime = [{\"path\": \"/bin/sh\", \"args\": [\"sh\", \"-c\",
		\"echo \$\$ > $marker.tmp; mv $marker.tmp $marker; exec sleep 1000\"]}]")
	sd create --bundle "$b" "$id" </dev/null >"$CASE_DIR/create.out" 2>&1 &
	creator=$!
	wait_until "the hook ran" test -s "$marker" || return
	hook=$(cat "$marker")
	expect_eq "unit during the hook" "$(unit_prop "ctrt-$id.scope" ActiveState)" active
	kill -KILL "$creator"
	wait "$creator" 2>/dev/null
	kill -KILL "$hook"
	run_rc "delete --force" 0 sd delete --force "$id"
	wait_until "unit removed" unit_gone "ctrt-$id.scope"
	[ ! -e "$CG/system.slice/ctrt-$id.scope" ] || fail "cgroup of ctrt-$id.scope left"
	rt state "$id" >/dev/null 2>&1 && fail "$id still known to state"
}

# A create killed while its scope's start job waits (the scope is ordered after a service
# still starting): its init dies with it, so the job, once it runs, finds none of its PIDs,
# fails, and systemd keeps the failed unit without a cgroup: ControlGroup "" (read as a path,
# the hierarchy's root, every process of the machine). delete --force stops and resets the
# unit, and kills nothing else: a process of a scope of its own outlives it.
case_unit_without_cgroup() {
	local id=$RT_NAME-nocg unit blocker=ctrt-$RT_NAME-blocker go=$CASE_DIR/go b creator init p
	local sentinel
	unit=ctrt-$id.scope
	systemd-run --quiet --scope --unit="ctrt-$id-sentinel" sleep 1000 </dev/null >/dev/null 2>&1 &
	sentinel=$!
	wait_until "the sentinel's scope" unit_state_is "ctrt-$id-sentinel.scope" active || return
	systemd-run --quiet --no-block --unit="$blocker" --service-type=oneshot \
		sh -c "while [ ! -e $go ]; do sleep 0.1; done" </dev/null >/dev/null 2>&1
	wait_until "$blocker starting" unit_state_is "$blocker.service" activating ||
		{ touch "$go" && return; }
	b=$(bundle b "system.slice:ctrt:$id" "$SLEEP" \
		".annotations = {\"org.systemd.property.After\": \"['$blocker.service']\"}")
	(exec "$RT" --root "/run/ctrt-$RT_NAME" --systemd-cgroup create --bundle "$b" "$id" \
		</dev/null >"$CASE_DIR/create.out" 2>&1) &
	creator=$!
	wait_until "$unit loaded, its start job waiting" unit_loaded "$unit"
	init=$(pgrep -P "$creator")
	kill -KILL "$creator"
	wait "$creator" 2>/dev/null
	for p in $init; do
		wait_until "the init $p reaped" test ! -e "/proc/$p"
	done
	touch "$go"
	wait_until "$unit failed" unit_state_is "$unit" failed || return
	expect_eq "ControlGroup of the failed unit" "$(unit_prop "$unit" ControlGroup)" ""
	run_rc "delete --force" 0 sd delete --force "$id"
	local WAIT_LIMIT=30 # the unit goes at once or not at all
	wait_until "$unit removed" unit_gone "$unit"
	rt state "$id" >/dev/null 2>&1 && fail "$id still known to state"
	kill -0 "$sentinel" 2>/dev/null || fail "the sentinel (a process of another scope) was killed"
	expect_eq "the sentinel's scope" "$(unit_prop "ctrt-$id-sentinel.scope" ActiveState)" active
	systemctl stop "ctrt-$id-sentinel.scope"
	wait "$sentinel" 2>/dev/null
}

# OOM with memory.oom.group: the kernel kills the whole container, the init included; the
# same container without it keeps its init.
oom_container() { # ID GROUP(0|1) [update]
	local b
	b=$(bundle "$1" "system.slice:ctrt:$1" "$SLEEP" "$WITH_CGROUPNS |
		.linux.resources = {\"memory\": {\"limit\": 33554432, \"swap\": 33554432},
		\"unified\": {\"memory.oom.group\": \"$2\"}}")
	create_started "$1" "$b" || return
	[ -z "${3:-}" ] || run_rc "update $1" 0 sd update --pids-limit 50 "$1"
	local group
	group=$(inside "$1" cat /sys/fs/cgroup/memory.oom.group)
	[ "$group" = "$2" ] || { fail "memory.oom.group of $1 inside: got '$group', want '$2'" && return 1; }
	run_rc "exec the memory hog in $1" 137 sd exec "$1" sh -c 'tail /dev/zero'
}
case_oom_group() {
	local id=$RT_NAME-oom
	oom_container "$id-solo" 0
	expect_eq "status without the group" "$(status_of "$id-solo")" running
	oom_container "$id-group" 1 || return
	wait_until "the init killed with the group" status_is "$id-group" stopped
}

# An update (systemd applies the unit's properties again) keeps memory.oom.group.
case_oom_group_update() {
	local id=$RT_NAME-oomu
	oom_container "$id" 1 update || return
	wait_until "the init killed with the group" status_is "$id" stopped
}

# Rootless: the unit on the user's manager (systemd --user of a lingering user), the empty
# slice meaning user.slice there.
RL_USER=ctrtuser
user_sh() {
	runuser -u "$RL_USER" -- env XDG_RUNTIME_DIR="/run/user/$RL_UID" \
		DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$RL_UID/bus" "$@"
}
user_unit_gone() {
	[ "$(user_sh systemctl --user show -P LoadState "$1")" = not-found ]
}
case_rootless() {
	RL_UID=$(id -u "$RL_USER" 2>/dev/null) || {
		skip_case "no user $RL_USER"
		return
	}
	case $(user_sh systemctl --user is-system-running 2>&1) in
	running | degraded) ;;
	*)
		skip_case "systemd --user does not run for $RL_USER"
		return
		;;
	esac
	local id=$RT_NAME-rl dir=/home/$RL_USER/ctrt-$RT_NAME unit want
	unit=ctrt-$id.scope
	rm -rf "$dir"
	mkdir -p "$dir"
	jq --arg id "$id" --arg root "$ROOTFS" --argjson uid "$RL_UID" '
		.process.args = ["sleep", "1000"] | .process.terminal = false | .root.path = $root |
		.linux.cgroupsPath = ":ctrt:" + $id | .linux.resources = {"pids": {"limit": 42}} |
		'"$WITH_CGROUPNS"' |
		.linux.uidMappings = [{"containerID": 0, "hostID": $uid, "size": 1}] |
		.linux.gidMappings = [{"containerID": 0, "hostID": $uid, "size": 1}]' \
		/var/lib/ctrt/rootless.json >"$dir/config.json"
	chown -R "$RL_USER:" "$dir"
	local urt="$RT --root /run/user/$RL_UID/ctrt-$RT_NAME --systemd-cgroup"
	run_rc "create as $RL_USER" 0 user_sh $urt create --bundle "$dir" "$id"
	run_rc "start as $RL_USER" 0 user_sh $urt start "$id"
	want=/user.slice/user-$RL_UID.slice/user@$RL_UID.service/user.slice/$unit
	local pid
	pid=$(user_sh $urt state "$id" | jq -r .pid)
	expect_eq "init's cgroup" "$(cgroup_of_pid "$pid")" "$want"
	expect_eq "user unit's Slice" "$(user_sh systemctl --user show -P Slice "$unit")" user.slice
	expect_eq "user unit's TasksMax" "$(user_sh systemctl --user show -P TasksMax "$unit")" 42
	expect_eq "pids.max inside" "$(user_sh $urt exec "$id" cat /sys/fs/cgroup/pids.max </dev/null)" 42
	expect_eq "not on the system manager" "$(unit_prop "$unit" LoadState)" not-found
	run_rc "delete --force as $RL_USER" 0 user_sh $urt delete --force "$id"
	wait_until "user unit removed" user_unit_gone "$unit"
}

# containerd with SystemdCgroup = true (ctr's --runc-systemd-cgroup) and $RT as the shim's
# runtime: the task's init in the scope ctr named.
case_containerd() {
	command -v ctr >/dev/null || {
		skip_case "no ctr"
		return
	}
	local id=$RT_NAME-ctr pid
	wait_until "containerd answers" ctr version
	run_rc "ctr run -d" 0 ctr run -d --runc-binary "$RT" --runc-systemd-cgroup \
		--cgroup "system.slice:ctrt:$id" --rootfs "$ROOTFS" "$id" /bin/sleep 1000 || return
	pid=$(ctr task ls | awk -v id="$id" '$1 == id {print $2}')
	expect_match "task pid" "$pid" '^[0-9]+$'
	expect_eq "task's cgroup" "$(cgroup_of_pid "$pid")" "/system.slice/ctrt-$id.scope"
	expect_eq "Delegate" "$(unit_prop "ctrt-$id.scope" Delegate)" yes
	run_rc "ctr task exec" 0 ctr task exec --exec-id e1 "$id" /bin/cat /proc/self/cgroup
	run_rc "ctr task kill" 0 ctr task kill -s KILL "$id"
	wait_until "task stopped" sh -c "ctr task ls | grep -q '^$id .*STOPPED'"
	run_rc "ctr task delete" 0 ctr task delete "$id"
	run_rc "ctr container delete" 0 ctr container delete "$id"
	wait_until "unit removed" unit_gone "ctrt-$id.scope"
}

# A shared config (../shared/configs) as a bundle: created, its init in the unit its
# cgroupsPath names, then started: its output and exit code.
config_case() { # FILE ID WANT_OUT
	local dir=$CASE_DIR/b pid unit
	mkdir -p "$dir"
	mkdir -p "$CASE_DIR/userdata/shm" # what Podman's placeholders name
	touch "$CASE_DIR/userdata/"{.containerenv,hostname,hosts}
	sed "s|@USERDATA@|$CASE_DIR/userdata|g" "/payload/configs/$1" >"$dir/config.json"
	cp -a "$ROOTFS" "$dir/rootfs"
	unit=$(jq -r '.linux.cgroupsPath' "$dir/config.json" | awk -F: '{print $2 "-" $3 ".scope"}')
	sd create --bundle "$dir" "$2" </dev/null >"$CASE_DIR/create.out" 2>"$CASE_DIR/create.err" ||
		fail "create: $(cat "$CASE_DIR/create.err")"
	pid=$(pid_of "$2")
	expect_match "init's cgroup" "$(cgroup_of_pid "$pid")" "/$unit\$"
	run_rc "start" 0 sd start "$2"
	wait_until "stopped" status_is "$2" stopped
	expect_eq "output" "$(cat "$CASE_DIR/create.out")" "$3"
	run_rc "delete" 0 sd delete "$2"
	wait_until "$unit removed" unit_gone "$unit"
}
case_shim_config() {
	config_case containerd-systemd-cgroup.json "$RT_NAME-shimcfg" hi
}
case_podman_config() {
	config_case podman-systemd-cgroup-manager.json "$RT_NAME-podcfg" systemd
}

# Podman with the systemd cgroup manager and $RT as its runtime.
case_podman() {
	command -v podman >/dev/null || {
		skip_case "no podman"
		return
	}
	local p="podman --runtime $RT --cgroup-manager systemd --storage-driver vfs" cid pid
	cp -a "$ROOTFS" "$CASE_DIR/rootfs" # Podman adds its mount points to it
	run_rc "podman run" 0 $p run --rm --network none --rootfs "$CASE_DIR/rootfs" sh -c 'echo in-podman'
	expect_eq "podman run's output" "$(out)" in-podman
	run_rc "podman run -d" 0 $p run -d --network none --rootfs "$CASE_DIR/rootfs" sleep 1000
	cid=$(out)
	pid=$($p inspect -f '{{.State.Pid}}' "$cid")
	expect_match "container's cgroup" "$(cgroup_of_pid "$pid")" "^/machine.slice/libpod-$cid\.scope(/container)?\$"
	expect_eq "unit's Slice" "$(unit_prop "libpod-$cid.scope" Slice)" machine.slice
	run_rc "podman rm -f" 0 $p rm -f "$cid"
	wait_until "unit removed" unit_gone "libpod-$cid.scope"
}

# Checkpoint and restore (CRIU) of containers in systemd's units. The counter counts in LOG
# (1, 2, 3... one a line, unbroken while it is the same process), which the case reads.
counter_sh() { # LOG
	echo "i=0; while :; do i=\$((i + 1)); echo \$i >>$1; sleep 0.1; done"
}
count_of() { # LOG: the count so far (0 before the first)
	local l
	l=$(tail -n 1 "$1" 2>/dev/null)
	echo "${l:-0}"
}
count_above() { # LOG N
	[ "$(count_of "$1")" -gt "$2" ]
}
expect_unbroken() { # LOG: 1..N, no gap, no second start
	awk 'NR != $1 { bad = 1 } END { exit (bad || NR < 2) }' "$1" ||
		fail "the count in $1 broke: $(tr '\n' ' ' <"$1" | tail -c 200)"
}

# criu in this guest: `criu check` passing (the packages bring it).
need_criu() {
	command -v criu >/dev/null || { fail "no criu in the guest" && return 1; }
	criu check >"$CASE_DIR/criu-check" 2>&1 ||
		{ fail "criu check: $(tr '\n' ' ' <"$CASE_DIR/criu-check")" && return 1; }
}

# criu_log NAME: the end of criu's log NAME in the case's image, into the case's log.
criu_log() {
	note "the end of $CASE_DIR/img/$1:"
	tail -n 15 "$CASE_DIR/img/$1" 2>&1 | sed 's/^/  /' >>"$CASE_DIR/log"
}

# piped WHAT WANT_RC CMD...: run_rc with CMD's stdio on pipes, as conmon and containerd's
# shim give it (criu gives a restored init pipes again, not the host's files its mount
# namespace cannot see); the pipes stay open behind CMD, as its caller's would.
piped() {
	local what=$1 want=$2 rc
	shift 2
	rm -f "$CASE_DIR/piped.rc"
	(true | { "$@" 2>&1; echo $? >"$CASE_DIR/piped.rc"; } | cat >"$CASE_DIR/piped.out") \
		>/dev/null 2>&1 &
	wait_until "$what returned" test -s "$CASE_DIR/piped.rc" || return 1
	rc=$(cat "$CASE_DIR/piped.rc")
	{
		echo "\$ $* -> $rc (stdio on pipes)"
		sed 's/^/  out: /' "$CASE_DIR/piped.out"
	} >>"$CASE_DIR/log"
	[ "$rc" = "$want" ] || { fail "$what: exit $rc, want $want" && return 1; }
}

# timed VAR CMD...: CMD, its wall time in ms in VAR (a figure printed, never judged).
timed() {
	local var=$1 start rc=0
	shift
	start=$(date +%s%N)
	"$@" || rc=$?
	printf -v "$var" %d $((($(date +%s%N) - start) / 1000000))
	return $rc
}

CRIU_LIMITS='.linux.resources = {"memory": {"limit": 67108864}, "pids": {"limit": 100}}'
# counter_bundle ID: the counter in unit ctrt-ID.scope with CRIU_LIMITS and a cgroup
# namespace, counting in $CASE_DIR/data/log (the case's data directory bound at /tmp).
counter_bundle() {
	mkdir -p "$CASE_DIR/data"
	bundle b "system.slice:ctrt:$1" "$(jq -cn --arg sh "$(counter_sh /tmp/log)" '["sh", "-c", $sh]')" \
		"$WITH_CGROUPNS | $CRIU_LIMITS |
		.mounts += [{\"destination\": \"/tmp\", \"type\": \"bind\", \"source\": \"$CASE_DIR/data\",
		\"options\": [\"rbind\", \"rw\"]}]"
}

# The unit of a container restored in it: active, the init in its cgroup, the config's limits
# on the unit and in the files the init sees.
expect_unit_holds() { # ID UNIT PID
	expect_eq "ActiveState" "$(unit_prop "$2" ActiveState)" active
	expect_eq "ControlGroup" "$(unit_prop "$2" ControlGroup)" "/system.slice/$2"
	expect_eq "init's cgroup" "$(cgroup_of_pid "$3")" "/system.slice/$2"
	grep -qx "$3" "$CG/system.slice/$2/cgroup.procs" || fail "init $3 not in $2's cgroup.procs"
	expect_eq "MemoryMax" "$(unit_prop "$2" MemoryMax)" 67108864
	expect_eq "TasksMax" "$(unit_prop "$2" TasksMax)" 100
	expect_eq "memory.max inside" "$(inside "$1" cat /sys/fs/cgroup/memory.max)" 67108864
	expect_eq "pids.max inside" "$(inside "$1" cat /sys/fs/cgroup/pids.max)" 100
	expect_eq "cgroup inside" "$(inside "$1" cat /proc/self/cgroup)" "0::/"
	expect_match "pid 1 inside" "$(inside "$1" cat /proc/1/cmdline | tr '\0' ' ')" "while :"
}

# checkpoint ends the container and its unit; restore --detach makes the unit again, with the
# restored init in it counting on from where it was; delete --force leaves nothing.
case_criu_restore() {
	need_criu || return
	local id=$RT_NAME-cr unit b log=$CASE_DIR/data/log pid pid2 at ms_dump ms_restore
	unit=ctrt-$id.scope
	b=$(counter_bundle "$id")
	piped "run -d" 0 sd run -d --bundle "$b" "$id" || return
	wait_until "counting" count_above "$log" 3 || return
	pid=$(pid_of "$id")
	timed ms_dump run_rc "checkpoint" 0 sd checkpoint --image-path "$CASE_DIR/img" "$id" ||
		{ criu_log dump.log && return; }
	expect_gone "$id" "$pid" "after checkpoint"
	systemctl status "$unit" >/dev/null 2>&1 && fail "systemctl status $unit succeeds after checkpoint"
	at=$(count_of "$log")
	timed ms_restore piped "restore --detach" 0 \
		sd restore --detach --image-path "$CASE_DIR/img" --bundle "$b" "$id" ||
		{ criu_log restore.log && return; }
	echo "@sd criu $RT_NAME criu_restore checkpoint ${ms_dump}ms restore ${ms_restore}ms"
	expect_eq "status after restore" "$(status_of "$id")" running
	pid2=$(pid_of "$id")
	expect_ne "pid after restore (the dumped one)" "$pid2" "$pid"
	wait_until "counting on after $at" count_above "$log" $((at + 2))
	expect_unbroken "$log"
	expect_unit_holds "$id" "$unit" "$pid2"
	run_rc "delete --force" 0 sd delete --force "$id"
	expect_gone "$id" "$pid2" "after delete --force"
}

# checkpoint --leave-running: the container, its init and its unit go on, not frozen.
case_criu_leave_running() {
	need_criu || return
	local id=$RT_NAME-clr unit b log=$CASE_DIR/data/log pid at
	unit=ctrt-$id.scope
	b=$(counter_bundle "$id")
	piped "run -d" 0 sd run -d --bundle "$b" "$id" || return
	wait_until "counting" count_above "$log" 3 || return
	pid=$(pid_of "$id")
	run_rc "checkpoint --leave-running" 0 \
		sd checkpoint --leave-running --image-path "$CASE_DIR/img" "$id" || return
	[ -s "$CASE_DIR/img/inventory.img" ] || fail "no inventory.img in the image"
	expect_eq "status" "$(status_of "$id")" running
	expect_eq "pid" "$(pid_of "$id")" "$pid"
	expect_unit_holds "$id" "$unit" "$pid"
	frozen_is "system.slice/$unit" 0 || fail "$unit's cgroup left frozen"
	at=$(count_of "$log")
	wait_until "counting on after $at" count_above "$log" $((at + 2))
	expect_unbroken "$log"
	run_rc "delete --force" 0 sd delete --force "$id"
	wait_until "$unit removed" unit_gone "$unit"
}

# Podman (systemd cgroup manager, $RT its runtime): container checkpoint and restore of a
# counter in PODMAN's container CID; its unit goes with it and comes back.
podman_checkpoint_restore() { # CID
	local cid=$1 log=$CASE_DIR/rootfs/log pid pid2 at
	wait_until "counting" count_above "$log" 3 || return
	pid=$($PODMAN inspect -f '{{.State.Pid}}' "$cid")
	run_rc "podman container checkpoint" 0 $PODMAN container checkpoint "$cid" || return
	expect_eq "checkpointed" "$($PODMAN inspect -f '{{.State.Checkpointed}}' "$cid")" true
	wait_until "init $pid gone" pid_gone "$pid"
	wait_until "unit removed" unit_gone "libpod-$cid.scope"
	at=$(count_of "$log")
	run_rc "podman container restore" 0 $PODMAN container restore "$cid" || return
	expect_eq "running" "$($PODMAN inspect -f '{{.State.Running}}' "$cid")" true
	pid2=$($PODMAN inspect -f '{{.State.Pid}}' "$cid")
	expect_ne "pid after restore (the dumped one)" "$pid2" "$pid"
	expect_match "restored init's cgroup" "$(cgroup_of_pid "$pid2")" \
		"^/machine.slice/libpod-$cid\.scope(/container)?\$"
	expect_eq "unit active" "$(unit_prop "libpod-$cid.scope" ActiveState)" active
	wait_until "counting on after $at" count_above "$log" $((at + 2))
	expect_unbroken "$log"
}
case_podman_checkpoint() {
	command -v podman >/dev/null || {
		skip_case "no podman"
		return
	}
	need_criu || return
	PODMAN="podman --runtime $RT --cgroup-manager systemd --storage-driver vfs"
	local cid
	cp -a "$ROOTFS" "$CASE_DIR/rootfs"
	run_rc "podman run -d" 0 $PODMAN run -d --network none --rootfs "$CASE_DIR/rootfs" \
		sh -c "$(counter_sh /log)" || return
	cid=$(out)
	podman_checkpoint_restore "$cid"
	run_rc "podman rm -f" 0 $PODMAN rm -f "$cid"
	wait_until "unit removed after rm" unit_gone "libpod-$cid.scope"
}
