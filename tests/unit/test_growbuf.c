/* The growth step the protobuf and D-Bus writers share (libct/base/growbuf.c). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "libct/base/growbuf.h"

Test(growbuf, starts_at_first_then_doubles)
{
	uint8_t *data = NULL;
	size_t cap = 0;
	cr_assert(ct_grow_bytes(&data, &cap, 10, 64));
	cr_expect_eq(cap, 64);
	cr_assert(ct_grow_bytes(&data, &cap, 65, 64));
	cr_expect_eq(cap, 128);
	cr_assert(ct_grow_bytes(&data, &cap, 600, 64));
	cr_expect_eq(cap, 1024, "doubled until it holds what is asked");
	data[599] = 1; /* the room is there */
	free(data);
}

Test(growbuf, enough_room_keeps_the_buffer)
{
	uint8_t *data = malloc(32);
	uint8_t *before = data;
	size_t cap = 32;
	cr_assert(ct_grow_bytes(&data, &cap, 32, 64));
	cr_expect_eq(data, before);
	cr_expect_eq(cap, 32);
	free(data);
}

Test(growbuf, failure_leaves_it_as_it_was)
{
	uint8_t *data = malloc(16);
	uint8_t *before = data;
	size_t cap = 16;
	cr_expect_not(ct_grow_bytes(&data, &cap, SIZE_MAX / 2 + 2, 16));
	cr_expect_eq(data, before);
	cr_expect_eq(cap, 16);
	free(data);
}
