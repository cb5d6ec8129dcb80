#include "libct/base/growbuf.h"

#include <stdint.h>
#include <stdlib.h>

bool ct_grow_bytes(uint8_t **data, size_t *cap, size_t need, size_t first)
{
	if (need <= *cap)
		return true;
	size_t grown_cap = *cap ? *cap : first;
	while (grown_cap < need) {
		if (grown_cap > SIZE_MAX / 2)
			return false; /* no size_t holds the next doubling */
		grown_cap *= 2;
	}
	uint8_t *grown = realloc(*data, grown_cap);
	if (!grown)
		return false;
	*data = grown;
	*cap = grown_cap;
	return true;
}
