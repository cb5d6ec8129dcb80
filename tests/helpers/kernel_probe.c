/* kernel_probe: prints what libct/base/kernel.c finds, one `name=yes|no` line per feature, in
 * enum order. Run under enosys to see the probes notice a missing syscall:
 *
 *   enosys clone3,statmount -- kernel_probe   ->  clone3=no ... statmount=no ...
 *
 * The helper is linked with libctrun.a, so this is the runtime's own probe code. */
#include <stdio.h>

#include "libct/base/kernel.h"

int main(void)
{
	for (int f = 0; f < CT_KF_COUNT; f++)
		printf("%s=%s\n", ct_kernel_feature_name(f), ct_kernel_has(f) ? "yes" : "no");
	return fflush(stdout) == 0 ? 0 : 1;
}
