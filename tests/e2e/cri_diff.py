#!/usr/bin/python3
"""The CRI sweep's driver (tests/e2e/cri_diff.sh runs it once per runtime handler): the same
pods and containers through the CRI with HANDLER, what each container sees (/bin/probe, from
its own command into its log and through ExecSync) and what the CRI reports (statuses, exec
results, stats, updates read back, stops, logs), normalised so that two handlers' runs of
one case print the same, one file per case in OUT.

  cri_diff.py SOCKET HANDLER OUT CGROUP LOGDIR IMAGE CASE...
"""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cri_client  # noqa: E402
from cri_client import api_pb2, as_dict  # noqa: E402
import grpc  # noqa: E402
from google.protobuf import json_format  # noqa: E402

SLEEP = ["sleep", "1000"]
MASKED = ["/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list",
          "/proc/timer_stats", "/proc/sched_debug", "/proc/scsi", "/sys/firmware"]
READONLY = ["/proc/asound", "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
            "/proc/sysrq-trigger"]
SEEN = "id status limits oom cwd env hostname files shm sysctl cglimits mounts dev writes"
RUNNING = api_pb2.ContainerState.Value("CONTAINER_RUNNING")
EXITED = api_pb2.ContainerState.Value("CONTAINER_EXITED")


class Call:
    """A CRI call that reports a gRPC error as its result instead of exiting."""

    def __init__(self, socket):
        self.cri = cri_client.Cri(socket)

    def __call__(self, method, request, timeout=60):
        service = self.cri.image if hasattr(self.cri.image, method) else self.cri.runtime
        message = json_format.ParseDict(request, getattr(api_pb2, method + "Request")())
        try:
            return getattr(service, method)(message, timeout=timeout), None
        except grpc.RpcError as err:
            return None, "%s: %s" % (err.code().name, err.details())


class Sweep:
    def __init__(self, socket, handler, cgroup, logdir, image):
        self.call = Call(socket)
        self.handler, self.cgroup, self.logdir, self.image = handler, cgroup, logdir, image
        self.lines = []
        self.names = {}
        self.cids = []

    def out(self, label, text):
        self.lines.append("== %s" % label)
        self.lines.extend(str(text).rstrip("\n").split("\n") if str(text).strip() else [])

    # ---- pods and containers, as a kubelet asks for them -------------------------------
    def pod(self, name, net="POD", pid="CONTAINER", ipc="POD", privileged=False, sysctls=None,
            target="", sec=None):
        self.pod_name = name
        ns = {"network": net, "pid": pid, "ipc": ipc, "target_id": target}
        self.ns = ns
        os.makedirs(os.path.join(self.logdir, name), exist_ok=True)
        self.pod_config = {
            "metadata": {"name": name, "uid": "uid-" + name, "namespace": "sweep"},
            "hostname": name if net == "POD" else "",
            "log_directory": os.path.join(self.logdir, name),
            "dns_config": {"servers": ["192.0.2.53"], "searches": ["sweep.svc"],
                           "options": ["ndots:5"]},
            "port_mappings": [],
            "linux": {"cgroup_parent": "/%s/%s" % (self.cgroup, name),
                      "sysctls": sysctls or {},
                      "security_context": dict({"privileged": privileged,
                                                "namespace_options": dict(ns, target_id="")},
                                               **(sec or {}))}}
        resp, err = self.call("RunPodSandbox", {"config": self.pod_config,
                                                 "runtime_handler": self.handler})
        if err:
            self.out("RunPodSandbox", err)
            return None
        self.pod_id = resp.pod_sandbox_id
        self.names[self.pod_id] = "<pod>"
        return self.pod_id

    def container(self, name, cmd, sec=None, res=None, start=True, target=None, masked=True,
                  **extra):
        ns = dict(self.ns)
        if target:
            ns["pid"], ns["target_id"] = "TARGET", target
        security = {"namespace_options": ns,
                    "masked_paths": MASKED if masked else [],
                    "readonly_paths": READONLY if masked else []}
        security.update(sec or {})
        config = {"metadata": {"name": name, "attempt": 0}, "image": {"image": self.image},
                  "command": cmd, "log_path": name + ".log",
                  "envs": [{"key": "SWEEP", "value": "b25lIHR3bw=="}],  # bytes: "one two"
                  "working_dir": "/tmp",
                  "linux": {"resources": res or {}, "security_context": security}}
        config.update(extra)
        resp, err = self.call("CreateContainer", {"pod_sandbox_id": self.pod_id,
                                                   "config": config,
                                                   "sandbox_config": self.pod_config})
        if err:
            self.out("create %s" % name, err)
            return None
        cid = resp.container_id
        self.names[cid] = "<ctr:%s>" % name
        self.cids.append(cid)
        if start:
            _, err = self.call("StartContainer", {"container_id": cid})
            self.out("start %s" % name, err or "ok")
        return cid

    def remove_pod(self):
        self.call("StopPodSandbox", {"pod_sandbox_id": self.pod_id})
        self.call("RemovePodSandbox", {"pod_sandbox_id": self.pod_id})

    # ---- what is seen and reported ----------------------------------------------------
    def exec(self, label, cid, cmd, timeout=20):
        resp, err = self.call("ExecSync", {"container_id": cid, "cmd": cmd, "timeout": timeout},
                              timeout=timeout + 30)
        if err:
            self.out("exec %s" % label, "error " + err)
            return ""
        self.out("exec %s (exit %d)" % (label, resp.exit_code),
                 resp.stdout.decode(errors="replace") +
                 "".join("\nstderr: " + l for l in resp.stderr.decode(errors="replace").splitlines()))
        return resp.stdout.decode(errors="replace")

    def probe(self, cid, sections=SEEN):
        self.exec("probe", cid, ["probe"] + sections.split())

    def status(self, cid):
        resp, err = self.call("ContainerStatus", {"container_id": cid})
        if err:
            self.out("ContainerStatus", err)
            return None
        s = as_dict(resp.status)
        for key in ("created_at", "started_at", "finished_at"):
            s[key] = "<time>" if int(s.get(key) or 0) else 0
        self.out("ContainerStatus", json.dumps(s, sort_keys=True, indent=1))
        return resp.status

    def pod_status(self):
        resp, err = self.call("PodSandboxStatus", {"pod_sandbox_id": self.pod_id})
        if err:
            self.out("PodSandboxStatus", err)
            return
        s = as_dict(resp.status)
        s["created_at"] = "<time>" if int(s.get("created_at") or 0) else 0
        self.out("PodSandboxStatus", json.dumps(s, sort_keys=True, indent=1))

    def pid(self, cid=None):
        """The pid of a container's init (or the sandbox's) from the CRI's verbose status."""
        if cid:
            resp, err = self.call("ContainerStatus", {"container_id": cid, "verbose": True})
        else:
            resp, err = self.call("PodSandboxStatus", {"pod_sandbox_id": self.pod_id, "verbose": True})
        if err or "info" not in resp.info:
            return 0
        return int(json.loads(resp.info["info"]).get("pid") or 0)

    def host_view(self, cids):
        """Seen from the host: each process's ids, capabilities, seccomp, oom_score_adj and
        cgroups, and which namespaces it shares with the sandbox or the node (containerd)."""
        procs = [("sandbox", self.pid())] + [(self.names[c], self.pid(c)) for c in cids]
        node = os.environ.get("CRIDIFF_NODE_PID", "1")
        lines = []
        for label, pid in procs:
            if not pid:
                lines.append("%s: no pid" % label)
                continue
            lines.extend("%s %s" % (label, l) for l in proc_status(pid))
            for ns in ("cgroup", "ipc", "mnt", "net", "pid", "uts", "user", "time"):
                mine = readlink("/proc/%d/ns/%s" % (pid, ns))
                where = ("node" if mine == readlink("/proc/%s/ns/%s" % (node, ns)) else
                         "sandbox" if mine == readlink("/proc/%d/ns/%s" % (procs[0][1], ns)) else
                         "own")
                lines.append("%s ns %s %s" % (label, ns, where))
        self.out("host view", "\n".join(lines))

    def running(self, cid):
        resp, err = self.call("ContainerStatus", {"container_id": cid})
        return not err and resp.status.state == RUNNING

    def wait_state(self, cid, state, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            resp, err = self.call("ContainerStatus", {"container_id": cid})
            if err or resp.status.state == state:
                return
            time.sleep(0.05)

    def log(self, name, path=None):
        path = path or os.path.join(self.logdir, self.pod_name, name + ".log")
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as err:
            text = "no log: %s" % err.strerror
        # CRI log lines: TIME STREAM TAG TEXT; the order of stdout and stderr lines may mix
        lines = [re.sub(r"^\S+ ", "<time> ", l) for l in text.splitlines()]
        self.out("log %s" % os.path.basename(path), "\n".join(sorted(lines)))

    def wait_log(self, name, line, seconds=20):
        path = os.path.join(self.logdir, self.pod_name, name + ".log")
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    if line in f.read():
                        return
            except OSError:
                pass
            time.sleep(0.05)

    def stats(self, cid):
        resp, err = self.call("ContainerStats", {"container_id": cid})
        if err:
            self.out("ContainerStats", err)
            return
        self.out("ContainerStats", json.dumps(shape(as_dict(resp.stats)), sort_keys=True, indent=1))
        resp, err = self.call("ListContainerStats", {"filter": {"pod_sandbox_id": self.pod_id}})
        self.out("ListContainerStats", err or "\n".join(sorted(
            json.dumps(shape(as_dict(s)), sort_keys=True) for s in resp.stats)))


def readlink(path):
    try:
        return os.readlink(path)
    except OSError as err:
        return err.strerror


def proc_status(pid):
    keep = ("Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
            "NoNewPrivs", "Seccomp", "Seccomp_filters", "Umask")
    lines = []
    try:
        with open("/proc/%d/status" % pid) as f:
            lines = [l.rstrip() for l in f if l.split(":")[0] in keep]
        for name in ("oom_score_adj", "cgroup", "cmdline"):
            with open("/proc/%d/%s" % (pid, name)) as f:
                lines.extend("%s %s" % (name, l.rstrip()) for l in
                             f.read().replace("\0", " ").splitlines())
    except OSError as err:
        lines.append("unreadable: %s" % err.strerror)
    return lines


def shape(value):
    """A stats message with each number replaced by whether it is zero: what is reported."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value]
    if isinstance(value, (int, float)) or (isinstance(value, str) and value.isdigit()):
        return "<n>" if int(value) else 0
    return value


# ---- the cases ---------------------------------------------------------------------------
PROBE_INIT = ["sh", "-c", "probe id status limits oom cwd env; echo to-err >&2; printf partial; "
                          "exec sleep 1000"]


def case_plain(s):
    s.pod("plain")
    cid = s.container("main", PROBE_INIT)
    s.wait_log("main", "[env]")
    s.wait_log("main", "to-err")
    s.pod_status()
    s.status(cid)
    s.probe(cid)
    s.probe(cid, "cgroup ns fds")
    s.exec("etc files writable", cid, ["sh", "-c", "for f in /etc/hosts /etc/resolv.conf /etc/hostname; do "
                                                   ": >>$f && echo $f writable; done"])
    s.log("main")


def case_exec(s):
    s.pod("exec")
    cid = s.container("main", SLEEP)
    s.exec("exit 7", cid, ["sh", "-c", "echo out; echo err >&2; exit 7"])
    s.exec("true", cid, ["true"])
    s.exec("missing", cid, ["/no/such/cmd"])
    s.exec("directory", cid, ["/tmp"])
    s.exec("not executable", cid, ["/etc/passwd"])
    s.exec("timeout", cid, ["sh", "-c", "echo started; exec sleep 1000"], timeout=1)
    s.exec("after timeout", cid, ["sh", "-c", "pidof sleep | wc -w"])
    s.exec("killed", cid, ["sh", "-c", "kill -9 $$"])
    s.exec("status", cid, ["probe", "id", "status", "cwd", "env", "limits", "oom"])
    s.exec("large output", cid, ["sh", "-c", "head -c 300000 /dev/zero | tr '\\0' a | wc -c; "
                                             "head -c 300000 /dev/zero | tr '\\0' b"])
    s.exec("stdin", cid, ["sh", "-c", "cat; echo eof $?"])


def case_user(s):
    s.pod("user")
    sec = {"run_as_user": {"value": 1000}, "run_as_group": {"value": 2000},
           "supplemental_groups": [3000, 3001]}
    cid = s.container("main", PROBE_INIT, sec)
    s.wait_log("main", "to-err")
    s.log("main")
    s.probe(cid, "id status writes")
    s.status(cid)


def case_username(s):
    s.pod("username")
    cid = s.container("main", SLEEP, {"run_as_username": "user"})
    s.probe(cid, "id status")


def case_readonly(s):
    s.pod("readonly")
    cid = s.container("main", SLEEP, {"readonly_rootfs": True})
    s.probe(cid, "mounts writes")


def case_privileged(s):
    s.pod("privileged", privileged=True)
    cid = s.container("main", SLEEP, {"privileged": True})
    s.probe(cid, "status mounts writes cglimits")
    s.exec("dev", cid, ["sh", "-c", "ls /dev | wc -l; stat -c '%n %F %t:%T' /dev/null /dev/kmsg /dev/mem 2>&1"])


def case_capabilities(s):
    s.pod("caps")
    a = s.container("adddrop", SLEEP, {"capabilities": {
        "add_capabilities": ["NET_ADMIN", "SYS_TIME"], "drop_capabilities": ["CHOWN", "NET_RAW"]}})
    b = s.container("dropall", SLEEP, {"capabilities": {
        "add_capabilities": ["NET_BIND_SERVICE"], "drop_capabilities": ["ALL"]}})
    c = s.container("asuser", SLEEP, {"run_as_user": {"value": 1000}, "capabilities": {
        "add_capabilities": ["NET_BIND_SERVICE"]}})
    for cid in (a, b, c):
        s.probe(cid, "status")


def case_seccomp(s):
    s.pod("seccomp")
    a = s.container("default", SLEEP, {"seccomp": {"profile_type": "RuntimeDefault"},
                                       "no_new_privs": True})
    b = s.container("unconfined", SLEEP, {"seccomp": {"profile_type": "Unconfined"}})
    c = s.container("nnp", SLEEP, {"no_new_privs": True})
    profile = os.path.join(os.environ["CRIDIFF_HOST_DIR"], "no-mkdir.json")
    with open(profile, "w") as f:
        json.dump({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
            {"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1},
            {"names": ["chmod", "fchmodat"], "action": "SCMP_ACT_ERRNO"}]}, f)
    d = s.container("localhost", SLEEP, {"seccomp": {"profile_type": "Localhost",
                                                     "localhost_ref": profile}})
    s.exec("refused by the profile", d, ["sh", "-c", "mkdir /tmp/d; chmod 600 /etc/hosts; echo $?"])
    for cid in (a, b, c, d):
        s.probe(cid, "status")
        s.exec("unshare", cid, ["unshare", "-U", "true"])


def case_host_namespaces(s):
    s.pod("hostns", net="NODE", pid="NODE", ipc="NODE")
    cid = s.container("main", SLEEP)
    s.pod_status()
    s.probe(cid, "hostname files shm mounts")
    s.exec("pid 1", cid, ["cat", "/proc/1/comm"])


def case_shared_pid(s):
    s.pod("sharedpid", pid="POD")
    a = s.container("a", SLEEP)
    b = s.container("b", ["sh", "-c", "exec sleep 999"])
    s.exec("pid 1", b, ["sh", "-c", "cat /proc/1/cmdline | tr '\\0' ' '; echo; pidof sleep | wc -w"])
    s.exec("ns", a, ["probe", "ns"])
    s.exec("ns", b, ["probe", "ns"])


def case_target_pid(s):
    s.pod("targetpid")
    a = s.container("target", SLEEP)
    b = s.container("debug", ["sh", "-c", "exec sleep 999"], target=a)
    s.exec("pid 1 seen by the debug container", b,
           ["sh", "-c", "cat /proc/1/cmdline | tr '\\0' ' '; echo; pidof sleep | wc -w"])
    s.exec("ns", a, ["probe", "ns"])
    s.exec("ns", b, ["probe", "ns"])


def case_two_containers(s):
    s.pod("two")
    a = s.container("a", SLEEP)
    b = s.container("b", SLEEP)
    s.exec("shm write", a, ["sh", "-c", "echo from-a >/dev/shm/note"])
    s.exec("shm read", b, ["cat", "/dev/shm/note"])
    s.exec("ns", a, ["probe", "ns", "hostname", "files"])
    s.exec("ns", b, ["probe", "ns", "hostname", "files"])


def case_sysctls(s):
    s.pod("sysctls", sysctls={"kernel.shm_rmid_forced": "1", "net.ipv4.ip_unprivileged_port_start": "80",
                              "net.ipv4.ping_group_range": "0 2147483647", "kernel.msgmax": "16384"})
    a = s.container("main", SLEEP)
    s.exec("sysctls", a, ["sh", "-c", "for f in kernel/shm_rmid_forced net/ipv4/ip_unprivileged_port_start "
                                      "net/ipv4/ping_group_range kernel/msgmax; do echo $f $(cat /proc/sys/$f); done"])
    s.pod_status()


def case_resources(s):
    s.pod("resources")
    res = {"cpu_shares": 512, "cpu_period": 100000, "cpu_quota": 50000,
           "memory_limit_in_bytes": 67108864, "memory_swap_limit_in_bytes": 134217728,
           "oom_score_adj": 500, "cpuset_cpus": "0", "cpuset_mems": "0"}
    cid = s.container("main", SLEEP, res=res)
    s.probe(cid, "cglimits oom")
    s.status(cid)
    _, err = s.call("UpdateContainerResources", {"container_id": cid, "linux": {
        "memory_limit_in_bytes": 100663296, "cpu_period": 100000, "cpu_quota": 25000,
        "cpu_shares": 256, "cpuset_cpus": "0-1"}})
    s.out("UpdateContainerResources", err or "ok")
    s.probe(cid, "cglimits oom")
    s.status(cid)
    _, err = s.call("UpdateContainerResources", {"container_id": cid, "linux": {
        "memory_limit_in_bytes": 1024}})
    s.out("UpdateContainerResources under usage", err and re.sub(r"\s+", " ", err) or "ok")
    s.probe(cid, "cglimits")


def case_unmasked(s):
    s.pod("unmasked")
    a = s.container("default", SLEEP)
    b = s.container("unmasked", SLEEP, masked=False)
    for cid in (a, b):
        s.probe(cid, "mounts writes")
        s.exec("reads", cid, ["sh", "-c", "for f in /proc/kcore /proc/keys /proc/timer_list; do "
                                          "head -c 1 $f >/dev/null 2>&1 && echo $f readable; done; "
                                          "ls /sys/firmware /proc/acpi 2>&1 | wc -l"])


def case_start_errors(s):
    s.pod("starterr")
    missing = s.container("missing", ["/no/such/cmd"])
    notexec = s.container("notexec", ["/etc/passwd"])
    nodir = s.container("nodir", ["sh", "-c", "pwd; exec sleep 1000"], working_dir="/no/such/dir")
    s.wait_log("nodir", "/")
    for cid in (missing, notexec, nodir):
        s.status(cid)
    s.log("nodir")


def case_devices_mounts(s):
    s.pod("devmounts")
    host = os.path.join(os.environ["CRIDIFF_HOST_DIR"], s.handler)
    for d in ("rw", "ro", "slave", "shared"):
        os.makedirs(os.path.join(host, d), exist_ok=True)
    with open(os.path.join(host, "file"), "w") as f:
        f.write("host file\n")
    mounts = [{"container_path": "/rw", "host_path": host + "/rw"},
              {"container_path": "/ro", "host_path": host + "/ro", "readonly": True},
              {"container_path": "/slave", "host_path": host + "/slave",
               "propagation": "PROPAGATION_HOST_TO_CONTAINER"},
              {"container_path": "/shared", "host_path": host + "/shared",
               "propagation": "PROPAGATION_BIDIRECTIONAL"},
              {"container_path": "/etc/injected", "host_path": host + "/file", "readonly": True},
              {"container_path": "/made", "host_path": host + "/made-by-the-runtime"}]
    devices = [{"container_path": "/dev/xzero", "host_path": "/dev/zero", "permissions": "r"},
               {"container_path": "/dev/xfull", "host_path": "/dev/full", "permissions": "rwm"}]
    cid = s.container("main", SLEEP, mounts=mounts, devices=devices)
    os.makedirs(host + "/slave/later", exist_ok=True)
    os.system("mount -t tmpfs cri-diff-later %s/slave/later" % host)
    s.exec("mounts", cid, ["sh", "-c", "grep -E ' /(rw|ro|slave|slave/later|shared|made|etc/injected) ' "
                                       "/proc/self/mountinfo | "
                                       "cut -d' ' -f4-; cat /etc/injected; "
                                       "touch /rw/x /ro/x 2>&1; ls /rw"])
    s.exec("devices", cid, ["sh", "-c", "stat -c '%n %F %t:%T %a %u:%g' /dev/xzero /dev/xfull; "
                                        "head -c 1 /dev/xzero | wc -c; echo x >/dev/xfull; "
                                        "cat /sys/fs/cgroup/devices/devices.list"])
    s.status(cid)


def case_tty(s):
    s.pod("tty")
    cid = s.container("main", ["sh", "-c", "probe tty fds; echo done; exec sleep 1000"], tty=True,
                      stdin=True)
    s.wait_log("main", "done")
    s.log("main")
    s.exec("tty", cid, ["probe", "tty"])


def case_bidirectional(s):
    s.pod("bidi", privileged=True)
    host = os.path.join(os.environ["CRIDIFF_HOST_DIR"], s.handler + "-bidi")
    os.makedirs(host + "/sub", exist_ok=True)
    mounts = [{"container_path": "/shared", "host_path": host,
               "propagation": "PROPAGATION_BIDIRECTIONAL"}]
    cid = s.container("main", SLEEP, {"privileged": True}, mounts=mounts)
    s.exec("mount inside", cid, ["mount", "-t", "tmpfs", "-o", "size=4k", "cri-diff-bidi", "/shared/sub"])
    s.probe(cid, "mounts")
    with open("/proc/self/mountinfo") as f:
        seen = [l for l in f if " - tmpfs cri-diff-bidi " in l]
    s.out("seen on the host", "%d mount(s) from inside" % len(seen))
    os.system("umount -l %s/sub 2>/dev/null" % host)


def case_sysctl_refusals(s):
    for name, net, sysctls in (("nonns", "POD", {"vm.swappiness": "10"}),
                               ("hostnet", "NODE", {"net.ipv4.ip_unprivileged_port_start": "80"}),
                               ("unknown", "POD", {"kernel.no_such_knob": "1"})):
        if s.pod("sysctl-" + name, net=net, sysctls=sysctls):
            s.pod_status()
            s.remove_pod()
            del s.pod_id


def case_sandbox_security(s):
    s.pod("sandboxsec", sec={"run_as_user": {"value": 65535}, "run_as_group": {"value": 65535},
                             "readonly_rootfs": True, "supplemental_groups": [4000],
                             "seccomp": {"profile_type": "RuntimeDefault"}})
    cid = s.container("main", SLEEP)
    s.probe(cid, "id status")


def case_stats(s):
    s.pod("stats")
    cid = s.container("main", ["sh", "-c", "head -c 1000000 /dev/zero >/tmp/f; echo go; exec sleep 1000"])
    s.wait_log("main", "go")
    s.exec("wait", cid, ["sh", "-c", "while [ \"$(cat /proc/1/comm)\" != sleep ]; do sleep 0.05; done"])
    s.stats(cid)


def case_stop(s):
    s.pod("stop")
    trapper = s.container("trapper", ["sh", "-c", "trap 'echo got-term; exit 7' TERM; echo ready; "
                                                  "while :; do sleep 0.1; done"])
    deaf = s.container("deaf", ["sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.1; done"])
    done = s.container("done", ["true"])
    failed = s.container("failed", ["sh", "-c", "exit 3"])
    oom = s.container("oom", ["sh", "-c", "tail /dev/zero"], res={"memory_limit_in_bytes": 16777216})
    s.wait_log("trapper", "ready")
    s.wait_log("deaf", "ready")
    _, err = s.call("StopContainer", {"container_id": trapper, "timeout": 20})
    s.out("stop trapper", err or "ok")
    _, err = s.call("StopContainer", {"container_id": deaf, "timeout": 1})
    s.out("stop deaf", err or "ok")
    deaf0 = s.container("deaf0", ["sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.1; done"])
    s.wait_log("deaf0", "ready")
    _, err = s.call("StopContainer", {"container_id": deaf0, "timeout": 0})
    s.out("stop deaf0 without grace", err or "ok")
    s.status(deaf0)
    for cid in (done, failed, oom):
        s.wait_state(cid, EXITED)
    for cid in (trapper, deaf, done, failed, oom):
        s.status(cid)
    s.log("trapper")
    _, err = s.call("StopContainer", {"container_id": done, "timeout": 1})
    s.out("stop an exited one", err or "ok")
    s.exec("exec in an exited one", done, ["true"])
    s.stats(done)
    _, err = s.call("UpdateContainerResources", {"container_id": done, "linux": {
        "memory_limit_in_bytes": 100663296}})
    s.out("update an exited one", err or "ok")


def case_stop_pod(s):
    s.pod("stoppod")
    trapper = s.container("trapper", ["sh", "-c", "trap 'echo got-term; exit 7' TERM; echo ready; "
                                                  "while :; do sleep 0.1; done"])
    deaf = s.container("deaf", ["sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.1; done"])
    s.wait_log("trapper", "ready")
    s.wait_log("deaf", "ready")
    _, err = s.call("StopPodSandbox", {"pod_sandbox_id": s.pod_id}, timeout=120)
    s.out("StopPodSandbox", err or "ok")
    s.pod_status()
    for cid in (trapper, deaf):
        s.status(cid)
    s.log("trapper")
    _, err = s.call("RemoveContainer", {"container_id": deaf})
    s.out("RemoveContainer", err or "ok")
    resp, err = s.call("ListContainers", {"filter": {"pod_sandbox_id": s.pod_id}})
    s.out("ListContainers", err or " ".join(sorted("%s %s" % (s.names.get(c.id, c.id),
                                                              api_pb2.ContainerState.Name(c.state))
                                                   for c in resp.containers)))


def case_reopen_log(s):
    s.pod("reopen")
    cid = s.container("main", ["sh", "-c", "i=0; while :; do i=$((i+1)); "
                                           "[ -e /tmp/go ] && echo line-$i && rm /tmp/go; sleep 0.05; done"])
    path = os.path.join(s.logdir, s.pod_name, "main.log")
    s.exec("first", cid, ["touch", "/tmp/go"])
    s.wait_log("main", "line-")
    os.rename(path, path + ".1")
    _, err = s.call("ReopenContainerLog", {"container_id": cid})
    s.out("ReopenContainerLog", err or "ok")
    s.exec("second", cid, ["touch", "/tmp/go"])
    s.wait_log("main", "line-")
    with open(path, errors="replace") as f:
        s.out("new log", re.sub(r"line-[0-9]+", "line-N", re.sub(r"^\S+ ", "<time> ", f.read(), flags=re.M)))
    with open(path + ".1", errors="replace") as f:
        s.out("old log", re.sub(r"line-[0-9]+", "line-N", re.sub(r"^\S+ ", "<time> ", f.read(), flags=re.M)))
    _, err = s.call("StopContainer", {"container_id": cid, "timeout": 1})
    _, err = s.call("ReopenContainerLog", {"container_id": cid})
    s.out("ReopenContainerLog stopped", err or "ok")


CASES = {name[5:].replace("_", "-"): fn for name, fn in list(globals().items())
         if name.startswith("case_")}


def normalise(text, sweep):
    for cid, name in sweep.names.items():
        text = text.replace(cid, name)
    rules = [(r"\b[0-9a-f]{64}\b", "<id>"),
             (r"\b(ctrun|runc)\b", "<handler>"),
             (r"/snapshots/[0-9]+/", "/snapshots/N/"),
             (r"containerd-mount[0-9]+", "containerd-mountN"),
             (r"\b10\.88\.0\.[0-9]+\b", "10.88.0.X"),
             (r"\b(shared|master):[0-9]+", r"\1:N"),
             (r"pipe:\[[0-9]+\]", "pipe:[ino]"),
             (r"(net|ipc|uts|pid|pid_for_children|mnt|cgroup|time|user|time_for_children):\[[0-9]+\]",
              r"\1:[ino]"),
             (r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9:]+)", "<time>")]
    for pattern, repl in rules:
        text = re.sub(pattern, repl, text)
    return text


def main(argv):
    if len(argv) < 8:
        raise SystemExit(__doc__)
    socket, handler, out, cgroup, logdir, image = argv[1:7]
    for name in argv[7:] if argv[7:] != ["all"] else sorted(CASES):
        sweep = Sweep(socket, handler, cgroup, os.path.join(logdir, handler), image)
        try:
            CASES[name](sweep)
            if hasattr(sweep, "pod_id"):
                sweep.host_view([c for c in sweep.cids if sweep.running(c)])
        except Exception as err:  # a case's failure is a line of its output
            sweep.out("case failed", repr(err))
        finally:
            if hasattr(sweep, "pod_id"):
                sweep.remove_pod()
        with open(os.path.join(out, "%s.%s" % (name, handler)), "w") as f:
            text = "\n".join(sweep.lines) + "\n"
            f.write(normalise(text.replace(os.path.join(logdir, handler), "<logs>"), sweep))
        print("%s %s" % (handler, name), flush=True)


if __name__ == "__main__":
    main(sys.argv)
