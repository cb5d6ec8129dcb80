/* One netlink request built in a fixed buffer: the header, the family's fixed header, then
 * attributes (netlink(7)). Pure: nothing here talks to the kernel. */
#ifndef CT_NLMSG_H
#define CT_NLMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CT_NLMSG_MAX 512

struct ct_nlmsg {
	union {
		uint32_t align;
		unsigned char buf[CT_NLMSG_MAX];
	};
	size_t len;
	bool overflow; /* an attribute did not fit: the message must not be sent */
};

/* The header (type, flags | NLM_F_REQUEST, seq 0) and the fixed header body (len bytes). */
void ct_nlmsg_init(struct ct_nlmsg *m, uint16_t type, uint16_t flags, const void *body,
		   size_t len);
/* The fixed header body, inside buf. */
void *ct_nlmsg_body(struct ct_nlmsg *m);
void ct_nlmsg_put(struct ct_nlmsg *m, uint16_t type, const void *data, size_t len);
void ct_nlmsg_put_u32(struct ct_nlmsg *m, uint16_t type, uint32_t value);
/* The string with its NUL, as the kernel's NLA_STRING and NLA_NUL_STRING both take it. */
void ct_nlmsg_put_str(struct ct_nlmsg *m, uint16_t type, const char *s);

#endif
