#include "runtime/exec_flags.h"

#include <errno.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/lifecycle/container.h"
#include "libct/parent/spawn_plan.h"
#include "libct/plan/plan.h"
#include "runtime/ctrun.h"
#include "runtime/flags.h"

#define EXEC_USAGE                                                                           \
	"[--process FILE] [--detach] [--pid-file F] [--console-socket S] [--tty] [--cwd D] " \
	"[--env K=V]... [--user UID[:GID]] [--additional-gids G]... [--cap C]... "           \
	"[--no-new-privs] [--apparmor P] [--process-label L] [--preserve-fds N] "            \
	"[--ignore-paused] [--cgroup [CONTROLLER:]SUB]... ID [CMD ARGS...]"

/* A decimal id into *out: 0, or -1 with why. (uid_t)-1 is none: setresuid and setgroups
 * would take it as "leave unchanged" and the process would keep ctrun's root. */
static int parse_id(const char *text, uint32_t *out, char *why, size_t why_size)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || end == text || *end || text[0] == '-' || v > UINT32_MAX) {
		snprintf(why, why_size, "\"%s\" is not a decimal id", text);
		return -1;
	}
	if (v == OCI_ID_UNCHANGED) {
		snprintf(why, why_size,
			 "%s is (uid_t)-1, which the kernel takes as \"leave the id unchanged\": "
			 "not an id",
			 text);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

int ct_exec_parse_user(const char *text, uint32_t *uid, uint32_t *gid, bool *has_gid, char *why,
		       size_t why_size)
{
	char buf[64];
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	*has_gid = colon != NULL;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	char id_why[128];
	if (parse_id(buf, uid, id_why, sizeof(id_why)) < 0 ||
	    (colon && parse_id(colon + 1, gid, id_why, sizeof(id_why)) < 0)) {
		snprintf(why, why_size, "\"%s\" is not UID or UID:GID: %s", text, id_why);
		return -1;
	}
	return 0;
}

static int parse_bool(const char *text, bool *out)
{
	if (!text || strcmp(text, "true") == 0)
		*out = true;
	else if (strcmp(text, "false") == 0)
		*out = false;
	else
		return -1;
	return 0;
}

/* The flags that check or collect their values: each one's take() of its table row. */
static int take_env(void *to, const char *command, const char *text)
{
	struct ct_exec_flags *f = to;
	/* as runc refuses it ("invalid environment variable"): crun 1.8.1 drops it */
	const char *eq = strchr(text, '=');
	if (!eq || eq == text)
		return ct_usage_error(command, "--env: \"%s\" is not NAME=VALUE", text), -1;
	f->env[f->n_env++] = text;
	return 0;
}

static int take_cap(void *to, const char *command, const char *text)
{
	struct ct_exec_flags *f = to;
	if (ct_capability_from_name(text) < 0)
		return ct_usage_error(command, "--cap: unknown capability \"%s\"", text), -1;
	f->caps[f->n_caps++] = text;
	return 0;
}

static int take_gid(void *to, const char *command, const char *text)
{
	struct ct_exec_flags *f = to;
	char why[256];
	if (parse_id(text, &f->gids[f->n_gids], why, sizeof(why)) < 0)
		return ct_usage_error(command, "--additional-gids: %s", why), -1;
	f->n_gids++;
	return 0;
}

static int take_user(void *to, const char *command, const char *text)
{
	struct ct_exec_flags *f = to;
	char why[256];
	if (ct_exec_parse_user(text, &f->uid, &f->gid, &f->has_gid, why, sizeof(why)) < 0)
		return ct_usage_error(command, "--user: %s", why), -1;
	f->has_user = true;
	return 0;
}

static int take_cgroup(void *to, const char *command, const char *text)
{
	(void)command;
	struct ct_exec_flags *f = to;
	f->cgroups[f->n_cgroups++] = text;
	return 0;
}

static int take_no_new_privs(void *to, const char *command, const char *text)
{
	struct ct_exec_flags *f = to;
	if (parse_bool(text, &f->no_new_privs) < 0)
		return ct_usage_error(command, "--no-new-privs: expected true or false"), -1;
	f->no_new_privs_set = true;
	return 0;
}

int ct_exec_flags_parse(int argc, char **argv, struct ct_exec_flags *f)
{
	*f = (struct ct_exec_flags){0};
	/* each repeatable flag occurs at most argc times */
	f->env = calloc((size_t)argc, sizeof(*f->env));
	f->caps = calloc((size_t)argc, sizeof(*f->caps));
	f->gids = calloc((size_t)argc, sizeof(*f->gids));
	f->cgroups = calloc((size_t)argc, sizeof(*f->cgroups));
	if (!f->env || !f->caps || !f->gids || !f->cgroups)
		return ct_usage_error(argv[0], "out of memory"), -1;
	const struct ct_flag flags[] = {
		{"process", 'p', CT_FLAG_TEXT, &f->process_file},
		{"detach", 'd', CT_FLAG_TRUE, &f->detach},
		{"pid-file", 0, CT_FLAG_TEXT, &f->pid_file},
		{"console-socket", 0, CT_FLAG_TEXT, &f->console_socket},
		{"tty", 't', CT_FLAG_TRUE, &f->tty},
		{"cwd", 0, CT_FLAG_TEXT, &f->cwd},
		{"env", 'e', CT_FLAG_CALL, f, take_env},
		{"user", 'u', CT_FLAG_CALL, f, take_user},
		{"additional-gids", 'g', CT_FLAG_CALL, f, take_gid},
		{"cap", 'c', CT_FLAG_CALL, f, take_cap},
		{"no-new-privs", 0, CT_FLAG_CALL_OPTIONAL, f, take_no_new_privs},
		{"apparmor", 0, CT_FLAG_TEXT, &f->apparmor},
		{"process-label", 0, CT_FLAG_TEXT, &f->process_label},
		{"preserve-fds", 0, CT_FLAG_COUNT, &f->preserve_fds},
		{"ignore-paused", 0, CT_FLAG_TRUE, &f->ignore_paused},
		{"cgroup", 0, CT_FLAG_CALL, f, take_cgroup},
		{NULL},
	};
	const struct ct_command_line line = {EXEC_USAGE, flags, 1, CT_ARGS_ANY};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed)
		return parsed;
	f->id = argv[optind];
	f->args = argv + optind + 1;
	f->n_args = (size_t)(argc - optind - 1);
	if (!f->process_file && !f->n_args)
		return ct_usage_error(argv[0], "missing the command to run (CMD or --process)"), -1;
	if (f->process_file && f->n_args)
		return ct_usage_error(argv[0], "a command and --process: give one of them"), -1;
	return 0;
}

void ct_exec_flags_free(struct ct_exec_flags *f)
{
	free(f->env);
	free(f->caps);
	free(f->gids);
	free(f->cgroups);
	f->env = f->caps = f->cgroups = NULL;
	f->gids = NULL;
}

static int strings_push(oci_strings *s, const char *value)
{
	char *copy = strdup(value);
	char **grown = copy ? realloc(s->items, (s->len + 1) * sizeof(*grown)) : NULL;
	if (!grown) {
		free(copy);
		return -1;
	}
	s->items = grown;
	s->items[s->len++] = copy;
	return 0;
}

static int replace_string(char **field, const char *value)
{
	if (!value)
		return 0;
	char *copy = strdup(value);
	if (!copy)
		return -1;
	free(*field);
	*field = copy;
	return 0;
}

static size_t env_key_len(const char *kv)
{
	const char *eq = strchr(kv, '=');
	return eq ? (size_t)(eq - kv) : strlen(kv);
}

/* runc's rule: a variable given again replaces the earlier value, in its place. */
static int env_set(oci_strings *env, const char *kv)
{
	size_t klen = env_key_len(kv);
	for (size_t i = 0; i < env->len; i++)
		if (env_key_len(env->items[i]) == klen && strncmp(env->items[i], kv, klen) == 0)
			return replace_string(&env->items[i], kv);
	return strings_push(env, kv);
}

static int set_args(oci_strings *args, char *const *argv, size_t n)
{
	for (size_t i = 0; i < args->len; i++)
		free(args->items[i]);
	args->len = 0;
	for (size_t i = 0; i < n; i++)
		if (strings_push(args, argv[i]) < 0)
			return -1;
	return 0;
}

static int push_gids(oci_uint32s *gids, const uint32_t *add, size_t n)
{
	if (!n)
		return 0;
	uint32_t *grown = realloc(gids->items, (gids->len + n) * sizeof(*grown));
	if (!grown)
		return -1;
	memcpy(grown + gids->len, add, n * sizeof(*add));
	gids->items = grown;
	gids->len += n;
	return 0;
}

/* runc adds --cap to the bounding, effective and permitted sets (and no longer to the
 * inheritable one: CVE-2022-29162). */
static int add_caps(const struct ct_exec_flags *f, struct oci_process *p)
{
	struct oci_capabilities *c = &p->capabilities;
	oci_strings *sets[] = {&c->bounding, &c->effective, &c->permitted};
	for (size_t i = 0; i < f->n_caps; i++)
		for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++)
			if (strings_push(sets[k], f->caps[i]) < 0)
				return -1;
	if (f->n_caps)
		p->has_capabilities = true;
	return 0;
}

static int apply_user(const struct ct_exec_flags *f, struct oci_process *p)
{
	if (f->has_user) {
		p->user.uid = f->uid;
		if (f->has_gid)
			p->user.gid = f->gid;
		p->has_user = true;
	}
	return push_gids(&p->user.additional_gids, f->gids, f->n_gids);
}

int ct_exec_apply_flags(const struct ct_exec_flags *f, struct oci_process *p, struct ct_error *err)
{
	int rc = set_args(&p->args, f->args, f->n_args) | replace_string(&p->cwd, f->cwd) |
		 replace_string(&p->apparmor_profile, f->apparmor) |
		 replace_string(&p->selinux_label, f->process_label) | apply_user(f, p) |
		 add_caps(f, p);
	for (size_t i = 0; i < f->n_env && rc == 0; i++)
		rc = env_set(&p->env, f->env[i]);
	if (rc < 0)
		return ct_error_sys(err, ENOMEM, "build the exec'd process");
	if (f->no_new_privs_set)
		p->no_new_privileges = f->no_new_privs;
	p->terminal = f->tty;
	return 0;
}
