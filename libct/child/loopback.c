#include "libct/child/loopback.h"

#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "libct/base/cleanup.h"

/* netdevice(7): the flags are read first so that only IFF_UP is added to them. */
static int set_up_flag(int sock, struct ct_error *err)
{
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0)
		return ct_error_sys(err, errno, "read the flags of the loopback \"lo\"");
	if (ifr.ifr_flags & IFF_UP)
		return 0;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(sock, SIOCSIFFLAGS, &ifr) < 0)
		return ct_error_sys(err, errno, "bring the loopback \"lo\" up");
	return 0;
}

int ct_loopback_up(struct ct_error *err)
{
	_cleanup_close_ int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return ct_error_sys(err, errno, "socket for the loopback's flags");
	return set_up_flag(sock, err);
}
