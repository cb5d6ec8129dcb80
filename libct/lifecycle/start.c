/* `start` and `state` of an existing container (libct/lifecycle/ops.h). */
#include <stdlib.h>

#include "libct/lifecycle/container.h"
#include "libct/lifecycle/container_abort.h"
#include "libct/lifecycle/log.h"
#include "libct/lifecycle/ops.h"

int ct_lifecycle_fail(const char *verb, const char *id, const struct ct_error *err)
{
	ct_log(CT_LOG_ERROR, "%s container \"%s\": %s", verb, ct_shown_id(id).s, err->msg);
	return -1;
}

int ct_lifecycle_start(const struct ct_lifecycle_opts *lc, const char *id)
{
	struct ct_container c;
	struct ct_error err = {0};
	int rc = 0;
	if (ct_container_open(lc, id, true, &c, &err) < 0) {
		rc = ct_lifecycle_fail("start", id, &err);
	} else if (c.status != CT_STATUS_CREATED) {
		ct_log(CT_LOG_ERROR, "start container \"%s\": cannot start a container that is %s",
		       ct_shown_id(id).s, ct_status_name(c.status));
		rc = -1;
	} else if (ct_container_start_fifo(&c, &err) < 0) {
		rc = ct_lifecycle_fail("start", id, &err);
		if (c.start_refused)
			ct_container_abort_start(&c);
	} else if (ct_container_poststart(&c, &err) < 0) {
		/* runtime.md#lifecycle step 9: the error, then the container goes */
		rc = ct_lifecycle_fail("start", id, &err);
		ct_container_abort_start(&c);
	}
	ct_container_close(&c);
	return rc;
}

int ct_lifecycle_state(const struct ct_lifecycle_opts *lc, const char *id, char **json)
{
	struct ct_container c;
	struct ct_error err = {0};
	int rc = 0;
	*json = NULL;
	if (ct_container_open(lc, id, false, &c, &err) < 0 ||
	    ct_state_format_json(&c.state, ct_status_name(c.status), json, &err) < 0) {
		rc = ct_lifecycle_fail("state of", id, &err);
		free(*json);
		*json = NULL;
	}
	ct_container_close(&c);
	return rc;
}
