/* An interface address as rtnetlink carries it (RTM_NEWADDR, rtnetlink(7)): what is read
 * from a device before it moves and written back once it has. */
#ifndef CT_NETADDR_H
#define CT_NETADDR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct ct_netaddr {
	uint8_t family; /* AF_INET or AF_INET6 */
	uint8_t prefixlen;
	uint8_t scope;
	uint32_t flags;	   /* IFA_F_*, from IFA_FLAGS when given */
	uint32_t ifindex;
	uint8_t local[16]; /* IFA_LOCAL (IPv4), or IFA_ADDRESS where there is none */
	uint8_t address[16];
	uint8_t broadcast[4];
	bool has_local, has_address, has_broadcast;
};

/* The address bytes of family: 4 or 16, 0 for another family. */
static inline unsigned ct_netaddr_size(uint8_t family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
}

#endif
