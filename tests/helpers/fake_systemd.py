#!/usr/bin/python3
"""A stand-in for systemd's manager on a private bus, for testing ctrun's systemd cgroup
driver on a machine without systemd (tests/integration/test_systemd_driver.c).

It owns org.freedesktop.systemd1 and answers the calls the driver makes as systemd 252 does
(the same error names and messages): Subscribe, StartTransientUnit, StopUnit,
ResetFailedUnit, GetUnit, SetUnitProperties, and Properties.Get of Version, ActiveState,
Description (the unit's name when it was given none, as systemd's) and ControlGroup, with
JobRemoved after each job. A unit's cgroup is a real cgroup2 directory
below --cgroup-root (made, filled with the PIDs, emptied and removed as systemd does). Every
unit's properties are written to --record/<unit>.json, and each call to calls.log, for the
tests to read (Properties.Get of Version too: a client reads it only when it needs it).
Unit names with "failjob" end their job "failed"; with "slowjob" their jobs never end (a
create killed while it waits; a stop that waits out processes that ignore SIGTERM); with
"slowstart" only the start job never ends (a client's wait times out); with "earlyjob"
JobRemoved comes before the reply that names the job (a client must keep what it saw
meanwhile); with "nocgroup" the unit's ControlGroup cannot be read. A unit without a cgroup
has ControlGroup "", as systemd's. With --cgroup-ns the manager is one in a cgroup namespace
rooted at --cgroup-root: the cgroups it names are below that root ("/x.scope").

Faults a test turns on and off while the manager runs, as files in --record:
fault.StopUnit, fault.GetUnit, fault.KillUnit, fault.ControlGroup hold "ERROR.NAME message":
that call (a Get of that property) fails with that D-Bus error; fault.start-job holds the
result every start job ends with ("failed"), or "never" (the job never ends), or
"nopids" (as systemd's scope start once none of its PIDs is left: the job fails and the unit,
failed, has no cgroup); fault.start-call holds what becomes of a start's call and its caller:
"unsent" (the caller is killed with SIGKILL and the call dropped, as if the kill came before
it was sent), "unanswered" (the caller is killed, then the call is handled: its answer
reaches no one), "lost" (the call is handled and never answered);
fault.stop-waits makes a stop as systemd's with a long stop timeout: SIGTERM to the unit's
processes, and the job ends only once they are gone.
"""
import argparse
import json
import os
import signal
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

BUS_NAME = "org.freedesktop.systemd1"
PATH = "/org/freedesktop/systemd1"
MANAGER = "org.freedesktop.systemd1.Manager"
PROPS = "org.freedesktop.DBus.Properties"

# What systemd 252 takes in a transient scope or slice (a subset: the driver's and the
# tests'); any other name is refused as systemd refuses it.
KNOWN = {
    "Description", "Slice", "Wants", "Delegate", "PIDs", "DefaultDependencies",
    "MemoryAccounting", "CPUAccounting", "IOAccounting", "TasksAccounting", "MemoryMax",
    "MemoryLow", "MemorySwapMax", "CPUWeight", "CPUQuotaPerSecUSec", "CPUQuotaPeriodUSec",
    "TasksMax", "AllowedCPUs", "AllowedMemoryNodes", "DevicePolicy", "DeviceAllow",
    "TimeoutStopUSec", "CollectMode",
}


class Error(dbus.DBusException):
    def __init__(self, name, message):
        super().__init__(message)
        self._dbus_error_name = name


def no_such_unit(name):
    return Error("org.freedesktop.systemd1.NoSuchUnit", "Unit %s not loaded." % name)


def plain(value):
    """A dbus-python value as JSON: its type's name and its value."""
    if isinstance(value, (dbus.Array, list)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Struct, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, int)):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


def typed(value):
    return {"type": type(value).__name__, "value": plain(value)}


def escape(name):
    return "".join(c if c.isalnum() else "_%02x" % ord(c) for c in name)


def slice_path(name):
    if name == "-.slice":
        return ""
    stem = name[: -len(".slice")]
    parts = stem.split("-")
    return "".join("/" + "-".join(parts[: i + 1]) + ".slice" for i in range(len(parts)))


class Manager(dbus.service.Object):
    def __init__(self, bus, args):
        super().__init__(bus, PATH)
        self.bus = bus
        self.args = args
        self.units = {}
        self.job = 0
        for spec in args.preload:
            name, state, *description = spec.split(":", 2)
            props = {"Description": typed(dbus.String(description[0]))} if description else {}
            self.units[name] = {"state": state, "props": props, "cgroup": None}
        self.record_all()

    # ---- bookkeeping ----

    def fault(self, name):
        """The content of the fault file fault.NAME, None when it is not there."""
        try:
            with open(os.path.join(self.args.record, "fault." + name)) as f:
                return f.read().strip()
        except FileNotFoundError:
            return None

    def check_fault(self, name):
        spec = self.fault(name)
        if spec is not None:
            error, _, message = spec.partition(" ")
            raise Error(error, message)

    def log(self, line):
        with open(os.path.join(self.args.record, "calls.log"), "a") as f:
            f.write(line + "\n")

    def record(self, name):
        u = self.units.get(name)
        path = os.path.join(self.args.record, name + ".json")
        if u is None:
            if os.path.exists(path):
                os.unlink(path)
            return
        doc = dict(u["props"])
        doc["_state"] = u["state"]
        doc["_cgroup"] = u["cgroup"]
        with open(path + ".tmp", "w") as f:
            json.dump(doc, f)
        os.rename(path + ".tmp", path)

    def record_all(self):
        for name in self.units:
            self.record(name)

    def top(self):
        """The directory of the manager's root cgroup "/"."""
        return self.args.cgroup_root if self.args.cgroup_ns else self.args.mount

    def cgroup_dir(self, cgroup):
        return os.path.join(self.top(), cgroup.lstrip("/"))

    def populated(self, u):
        try:
            with open(os.path.join(self.cgroup_dir(u["cgroup"]), "cgroup.events")) as f:
                return "populated 1" in f.read()
        except FileNotFoundError:
            return False

    def collect(self):
        """systemd's garbage collection: a scope whose processes are gone goes."""
        for name in list(self.units):
            u = self.units[name]
            if name.endswith(".scope") and u["state"] == "active" and u["cgroup"] and \
                    not self.populated(u):
                self.remove_cgroup(u)
                del self.units[name]
                self.record(name)

    def remove_cgroup(self, u):
        if not u["cgroup"]:
            return
        d = self.cgroup_dir(u["cgroup"])
        if os.path.exists(os.path.join(d, "cgroup.kill")):
            with open(os.path.join(d, "cgroup.kill"), "w") as f:
                f.write("1")
        for _ in range(2000):
            if not self.populated(u):
                break
            GLib.usleep(1000)
        for root, dirs, _ in os.walk(d, topdown=False):
            for sub in dirs:
                os.rmdir(os.path.join(root, sub))
        if os.path.isdir(d):
            os.rmdir(d)

    def finish_job(self, job, name, result):
        self.JobRemoved(dbus.UInt32(self.job), job, name, result)
        return False

    def new_job(self, name, result, start=False):
        self.job += 1
        job = dbus.ObjectPath("%s/job/%d" % (PATH, self.job))
        if "earlyjob" in name:
            self.finish_job(job, name, result)
        elif "slowjob" not in name and not (start and "slowstart" in name):
            GLib.idle_add(self.finish_job, job, name, result)
        return job

    def signal_all(self, u, sig):
        if sig == signal.SIGKILL and os.path.exists(self.cgroup_file(u, "cgroup.kill")):
            with open(self.cgroup_file(u, "cgroup.kill"), "w") as f:
                f.write("1")
            return
        with open(self.cgroup_file(u, "cgroup.procs")) as f:
            for pid in f.read().split():
                try:
                    os.kill(int(pid), sig)
                except ProcessLookupError:
                    pass

    def cgroup_file(self, u, name):
        return os.path.join(self.cgroup_dir(u["cgroup"]), name)

    def stop_when_empty(self, name):
        """systemd's stop of a unit whose processes got SIGTERM: done once they are gone."""
        self.job += 1
        job = dbus.ObjectPath("%s/job/%d" % (PATH, self.job))
        u = self.units[name]
        u["state"] = "deactivating"
        self.record(name)
        self.signal_all(u, signal.SIGTERM)

        def poll():
            if self.populated(u):
                return True
            self.remove_cgroup(u)
            del self.units[name]
            self.record(name)
            self.finish_job(job, name, "done")
            return False
        GLib.timeout_add(20, poll)
        return job

    # ---- the manager's methods ----

    @dbus.service.signal(MANAGER, signature="uoss")
    def JobRemoved(self, job_id, job, unit, result):
        pass

    @dbus.service.method(MANAGER, in_signature="", out_signature="")
    def Subscribe(self):
        self.log("Subscribe")

    def kill_caller(self, sender):
        pid = self.bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                     "org.freedesktop.DBus", "GetConnectionUnixProcessID",
                                     "s", (sender,))
        os.kill(int(pid), signal.SIGKILL)

    @dbus.service.method(MANAGER, in_signature="ssa(sv)a(sa(sv))", out_signature="o",
                         sender_keyword="sender", async_callbacks=("reply", "error"))
    def StartTransientUnit(self, name, mode, props, aux, sender, reply, error):
        call = self.fault("start-call")
        if call in ("unsent", "unanswered"):
            self.kill_caller(sender)
        if call == "unsent":
            return
        self.log("StartTransientUnit %s %s" % (name, mode))
        try:
            job = self.start_transient(name, props)
        except dbus.DBusException as e:
            error(e)
            return
        if call != "lost":
            reply(job)

    def attach(self, cgroup, pids):
        """The PIDs moved into cgroup, as many as are left."""
        attached = 0
        for pid in pids:
            try:
                with open(os.path.join(self.cgroup_dir(cgroup), "cgroup.procs"), "w") as f:
                    f.write(str(pid))
                attached += 1
            except ProcessLookupError:
                pass
        return attached

    def start_transient(self, name, props):
        self.collect()
        if name in self.units:
            raise Error("org.freedesktop.systemd1.UnitExists", "Unit %s already exists." % name)
        recorded = {}
        for key, value in props:
            if key not in KNOWN:
                raise Error("org.freedesktop.DBus.Error.PropertyReadOnly",
                            "Cannot set property %s, or unknown property." % key)
            recorded[key] = typed(value)
        is_slice = name.endswith(".slice")
        if is_slice:
            parent = (recorded.get("Wants", {}).get("value") or ["-.slice"])[0]
        else:
            parent = recorded.get("Slice", {}).get("value", "-.slice")
        pids = recorded.get("PIDs", {}).get("value", [])
        if not is_slice and not pids:
            raise Error("org.freedesktop.DBus.Error.InvalidArgs", "Scope has no PIDs. Refusing.")
        base = "" if self.args.cgroup_ns else \
            "/" + os.path.relpath(self.args.cgroup_root, self.args.mount)
        cgroup = base + slice_path(parent) + ("" if is_slice else "/" + name)
        if is_slice:
            cgroup = base + slice_path(name)
        result = self.fault("start-job") or ("failed" if "failjob" in name else "done")
        if result != "nopids":
            os.makedirs(self.cgroup_dir(cgroup), exist_ok=True)
            if pids and not self.attach(cgroup, pids):
                self.remove_cgroup({"cgroup": cgroup})
                result = "nopids"
        if result == "nopids":
            result, cgroup = "failed", None
        state = {"failed": "failed", "never": "activating"}.get(result, "active")
        self.units[name] = {"state": state, "props": recorded, "cgroup": cgroup}
        self.record(name)
        if result == "never":
            self.job += 1
            return dbus.ObjectPath("%s/job/%d" % (PATH, self.job))
        return self.new_job(name, result, start=True)

    @dbus.service.method(MANAGER, in_signature="ss", out_signature="o")
    def StopUnit(self, name, mode):
        self.log("StopUnit %s %s" % (name, mode))
        self.check_fault("StopUnit")
        self.collect()
        u = self.units.get(name)
        if u is None:
            raise no_such_unit(name)
        if self.fault("stop-waits") is not None and u["cgroup"]:
            return self.stop_when_empty(name)
        self.remove_cgroup(u)
        del self.units[name]
        self.record(name)
        return self.new_job(name, "done")

    @dbus.service.method(MANAGER, in_signature="s", out_signature="")
    def ResetFailedUnit(self, name):
        self.log("ResetFailedUnit %s" % name)
        u = self.units.get(name)
        if u is None:
            raise no_such_unit(name)
        if u["state"] in ("failed", "inactive"):
            self.remove_cgroup(u)
            del self.units[name]
            self.record(name)

    @dbus.service.method(MANAGER, in_signature="ssi", out_signature="")
    def KillUnit(self, name, whom, sig):
        self.log("KillUnit %s %s %d" % (name, whom, sig))
        self.check_fault("KillUnit")
        u = self.units.get(name)
        if u is None:
            raise no_such_unit(name)
        if u["cgroup"]:
            self.signal_all(u, int(sig))

    @dbus.service.method(MANAGER, in_signature="s", out_signature="o")
    def GetUnit(self, name):
        self.check_fault("GetUnit")
        self.collect()
        if name not in self.units:
            raise no_such_unit(name)
        return dbus.ObjectPath("%s/unit/%s" % (PATH, escape(name)))

    @dbus.service.method(MANAGER, in_signature="sba(sv)", out_signature="")
    def SetUnitProperties(self, name, runtime, props):
        self.log("SetUnitProperties %s %s" % (name, bool(runtime)))
        u = self.units.get(name)
        if u is None:
            raise no_such_unit(name)
        for key, value in props:
            if key not in KNOWN:
                raise Error("org.freedesktop.DBus.Error.PropertyReadOnly",
                            "Cannot set property %s, or unknown property." % key)
            u["props"][key] = typed(value)
        self.record(name)

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        if interface == MANAGER and prop == "Version":
            self.log("Get Version")
            return dbus.String(self.args.version)
        raise Error("org.freedesktop.DBus.Error.UnknownProperty", "Unknown property %s" % prop)


class Units(dbus.service.FallbackObject):
    """/org/freedesktop/systemd1/unit/<escaped name>: each unit's properties."""

    def __init__(self, bus, manager):
        super().__init__(bus, PATH + "/unit")
        self.manager = manager

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v", rel_path_keyword="rel")
    def Get(self, interface, prop, rel=None):
        for name, u in self.manager.units.items():
            if "/" + escape(name) == rel:
                if prop == "ActiveState":
                    return dbus.String(u["state"])
                if prop == "Description":
                    return dbus.String(u["props"].get("Description", {}).get("value", name))
                if prop == "ControlGroup":
                    self.manager.check_fault("ControlGroup")
                if prop == "ControlGroup" and "nocgroup" in name:
                    raise Error("org.freedesktop.DBus.Error.AccessDenied",
                                "Access to %s's ControlGroup denied." % name)
                if prop == "ControlGroup":
                    return dbus.String(u["cgroup"] or "")
                raise Error("org.freedesktop.DBus.Error.UnknownProperty",
                            "Unknown property %s" % prop)
        raise Error("org.freedesktop.DBus.Error.UnknownObject", "Unknown object %s" % rel)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--address", required=True)
    p.add_argument("--mount", required=True, help="the cgroup2 mount")
    p.add_argument("--cgroup-root", required=True, help="the manager's root cgroup (a dir)")
    p.add_argument("--record", required=True)
    p.add_argument("--cgroup-ns", action="store_true",
                   help="name cgroups from --cgroup-root, the manager's cgroup namespace")
    p.add_argument("--version", default="252.30-1~deb12u2")
    p.add_argument("--preload", action="append", default=[], help="NAME:STATE[:DESCRIPTION]")
    args = p.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(args.address)
    manager = Manager(bus, args)
    Units(bus, manager)
    name = dbus.service.BusName(BUS_NAME, bus)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    with open(os.path.join(args.record, "ready"), "w") as f:
        f.write("%d\n" % os.getpid())
    loop.run()
    del name
    return 0


if __name__ == "__main__":
    sys.exit(main())
