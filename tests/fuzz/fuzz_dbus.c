/* libFuzzer harness: bytes from the bus (hostile until checked) -> libct/dbus's message
 * reader; every value of a message it accepts is then read again through the iterator,
 * which must agree. The first byte's low bit chooses the typed-literal parser instead. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libct/dbus/literal.h"
#include "libct/dbus/message.h"

static void walk(struct ct_dbus_iter *it)
{
	struct ct_error err;
	while (ct_dbus_iter_type(it)) {
		char t = ct_dbus_iter_type(it);
		union ct_dbus_value v;
		struct ct_dbus_iter sub;
		int rc = strchr("a({v", t) ? ct_dbus_iter_enter(it, &sub, &err)
					   : ct_dbus_iter_get(it, t, &v, &err);
		if (rc < 0)
			abort(); /* the parse checked all of it */
		if (strchr("a({v", t))
			walk(&sub);
	}
}

static void literal(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	struct ct_dbus_lit v;
	struct ct_error err;
	if (ct_dbus_literal_parse(text, &v, &err) == 0) {
		struct ct_dbus_writer w;
		ct_dbus_writer_init(&w);
		ct_dbus_literal_write(&v, &w);
		ct_dbus_writer_free(&w);
		ct_dbus_literal_free(&v);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size && (data[0] & 1)) {
		literal(data + 1, size - 1);
		return 0;
	}
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	struct ct_dbus_msg m;
	struct ct_error err;
	if (ct_dbus_message_parse(copy, size, &m, &err) == 0) {
		struct ct_dbus_iter it;
		ct_dbus_iter_body(&it, &m);
		walk(&it);
	}
	free(copy);
	return 0;
}
