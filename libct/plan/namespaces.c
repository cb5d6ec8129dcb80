#include "libct/plan/namespaces.h"

#include <errno.h>
#include <sched.h>
#include <unistd.h>

#include "libct/base/syscalls.h"

const unsigned long ct_ns_clone_flags[OCI_NS_COUNT] = {
	[OCI_NS_MOUNT] = CLONE_NEWNS,	   [OCI_NS_PID] = CLONE_NEWPID,
	[OCI_NS_NETWORK] = CLONE_NEWNET,   [OCI_NS_UTS] = CLONE_NEWUTS,
	[OCI_NS_IPC] = CLONE_NEWIPC,	   [OCI_NS_USER] = CLONE_NEWUSER,
	[OCI_NS_CGROUP] = CLONE_NEWCGROUP, [OCI_NS_TIME] = CLONE_NEWTIME,
};

const struct ct_ns_join_row ct_ns_join_order[] = {
	{OCI_NS_USER, "user", "user", false},
	{OCI_NS_IPC, "ipc", "ipc", false},
	{OCI_NS_UTS, "uts", "uts", false},
	{OCI_NS_NETWORK, "net", "net", false},
	{OCI_NS_CGROUP, "cgroup", "cgroup", false},
	{OCI_NS_MOUNT, "mnt", "mnt", false},
	{OCI_NS_PID, "pid", "pid_for_children", true},
	{OCI_NS_TIME, "time", "time_for_children", true},
};
const size_t ct_ns_join_count = sizeof(ct_ns_join_order) / sizeof(ct_ns_join_order[0]);

int ct_ns_join_each(int fds[OCI_NS_COUNT], unsigned long flags, bool close_after,
		    struct ct_error *err)
{
	for (size_t i = 0; i < ct_ns_join_count; i++) {
		enum oci_ns_type type = ct_ns_join_order[i].type;
		unsigned long flag = ct_ns_clone_flags[type];
		if (!(flags & flag) || fds[type] < 0)
			continue;
		if (setns(fds[type], (int)flag) < 0)
			return ct_error_sys(err, errno, "join %s namespace",
					    oci_namespace_names[type]);
		if (close_after) {
			close(fds[type]);
			fds[type] = -1;
		}
	}
	return 0;
}
