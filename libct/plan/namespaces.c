#include "libct/plan/namespaces.h"

#include <sched.h>

#include "libct/base/syscalls.h"

const unsigned long ct_ns_clone_flags[OCI_NS_COUNT] = {
	[OCI_NS_MOUNT] = CLONE_NEWNS,	   [OCI_NS_PID] = CLONE_NEWPID,
	[OCI_NS_NETWORK] = CLONE_NEWNET,   [OCI_NS_UTS] = CLONE_NEWUTS,
	[OCI_NS_IPC] = CLONE_NEWIPC,	   [OCI_NS_USER] = CLONE_NEWUSER,
	[OCI_NS_CGROUP] = CLONE_NEWCGROUP, [OCI_NS_TIME] = CLONE_NEWTIME,
};
