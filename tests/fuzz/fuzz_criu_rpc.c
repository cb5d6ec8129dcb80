/* libFuzzer harness: one datagram from `criu swrk` (hostile bytes) -> struct ct_criu_resp.
 * The bytes are given by their length, as recv() gives them: a read past the end is ASan's
 * to report. What is accepted must have its required fields and NUL-terminated texts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libct/criu/criu_rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ct_criu_resp r;
	struct ct_error err = {0};
	if (ct_criu_resp_decode(data, size, &r, &err) == 0) {
		if (!r.has_type || !r.has_success)
			abort();
		if (strnlen(r.cr_errmsg, CT_CRIU_TEXT_MAX) == CT_CRIU_TEXT_MAX ||
		    strnlen(r.notify_script, CT_CRIU_TEXT_MAX) == CT_CRIU_TEXT_MAX)
			abort();
	} else if (!err.msg[0]) {
		abort(); /* every refusal says why */
	}
	return 0;
}
