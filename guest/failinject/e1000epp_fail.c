// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1000epp_fail: make a kernel function fail when one module calls it,
 * for the e1000e-pp matrix's allocation-failure cells.
 *
 * Debian's kernels have neither CONFIG_FAULT_INJECTION (failslab,
 * fail_page_alloc) nor CONFIG_FUNCTION_ERROR_INJECTION (the BPF
 * override), but they have kprobes. A kprobe on the function's first
 * instruction sees the stack as the call left it, the caller's return
 * address on top. To fail the call, the handler resumes at
 * failed_call() instead: it returns the chosen value to that address,
 * and the function's body never runs.
 *
 * Parameters: func (the function), caller (the module whose calls may
 * fail), skip (calls to let through first), times (calls to fail),
 * retval (what a failed call returns: 0 for a NULL pointer, -12 for
 * -ENOMEM). Read back in /sys/module/e1000epp_fail/parameters: calls
 * (calls seen from the caller) and injected (calls failed).
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#ifndef CONFIG_X86_64
#error "e1000epp_fail returns through the x86-64 calling convention"
#endif

static char *func;
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the function whose calls fail");

static char *caller = "e1000e";
module_param(caller, charp, 0444);
MODULE_PARM_DESC(caller, "the module whose calls fail (default e1000e)");

static unsigned int skip;
module_param(skip, uint, 0444);
MODULE_PARM_DESC(skip, "calls from the caller let through first");

static unsigned int times = 1;
module_param(times, uint, 0444);
MODULE_PARM_DESC(times, "calls from the caller that fail (default 1)");

static long retval;
module_param(retval, long, 0444);
MODULE_PARM_DESC(retval, "what a failed call returns (default 0, NULL)");

static unsigned int calls;
module_param(calls, uint, 0444);
MODULE_PARM_DESC(calls, "calls seen from the caller (read only)");

static unsigned int injected;
module_param(injected, uint, 0444);
MODULE_PARM_DESC(injected, "calls failed so far (read only)");

static DEFINE_SPINLOCK(count_lock);
static char caller_tag[MODULE_NAME_LEN + 2];

/*
 * Entered by a jump at the probed function's first instruction: the
 * stack is the caller's call, so this returns straight to it.
 */
static noinline unsigned long failed_call(void)
{
	return (unsigned long)READ_ONCE(retval);
}

/* The module an address lies in, as "[name]" at the end of its symbol. */
static bool from_caller(unsigned long addr)
{
	char sym[KSYM_SYMBOL_LEN];
	size_t len, tag = strlen(caller_tag);

	len = sprint_symbol(sym, addr);
	return len >= tag && !strcmp(sym + len - tag, caller_tag);
}

static int fail_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long ret = *(unsigned long *)kernel_stack_pointer(regs);
	unsigned long flags;
	bool fail;

	if (!from_caller(ret))
		return 0;
	spin_lock_irqsave(&count_lock, flags);
	calls++;
	fail = calls > skip && injected < times;
	if (fail)
		injected++;
	spin_unlock_irqrestore(&count_lock, flags);
	if (!fail)
		return 0;
	instruction_pointer_set(regs, (unsigned long)failed_call);
	/* Not 0: the kprobe must not run the probed instruction. */
	return 1;
}

static struct kprobe fail_probe = {
	.pre_handler = fail_pre,
};

static int __init e1000epp_fail_init(void)
{
	int err;

	if (!func || !*func || !caller || !*caller) {
		pr_err("e1000epp_fail: func= and caller= are required\n");
		return -EINVAL;
	}
	if (strlen(caller) >= MODULE_NAME_LEN) {
		pr_err("e1000epp_fail: caller %s: not a module name\n", caller);
		return -EINVAL;
	}
	snprintf(caller_tag, sizeof(caller_tag), "[%s]", caller);
	fail_probe.symbol_name = func;
	err = register_kprobe(&fail_probe);
	if (err) {
		pr_err("e1000epp_fail: cannot probe %s: %d\n", func, err);
		return err;
	}
	pr_info("e1000epp_fail: %s from %s: skip %u, fail %u, return %ld\n",
		func, caller, skip, times, retval);
	return 0;
}

static void __exit e1000epp_fail_exit(void)
{
	unregister_kprobe(&fail_probe);
	pr_info("e1000epp_fail: %s: %u calls from %s, %u failed\n",
		func, calls, caller, injected);
}

module_init(e1000epp_fail_init);
module_exit(e1000epp_fail_exit);

MODULE_DESCRIPTION("Fail a function's calls from one module (e1000e-pp)");
MODULE_LICENSE("GPL");
