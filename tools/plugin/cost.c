/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest cost counter: a TCG plugin (QEMU's qemu-plugin.h API) that counts
 * the guest instructions executed between two marks, per vCPU and in
 * total, and the instructions executed inside chosen guest functions
 * inclusive of everything they call.
 *
 *   -plugin build/native/tools/plugin/libe1000epp-cost.so,\
 *           ranges=FILE,out=FILE
 *
 * Marks: the marker instruction of tools/wire/cost-mark.h (the agent's
 * MARK verb).  At the start mark the plugin (re)reads the ranges FILE,
 * written by the harness from the guest's /proc/kallsyms just before,
 * because module addresses exist only once the module is loaded:
 *
 *   func NAME ADDR      count NAME inclusively from its entry at ADDR
 *   irq ADDR [END]      an interrupt entry point (or the range of entry
 *                       stubs [ADDR, END)): asynchronous work the
 *                       function did not ask for
 *
 * At the stop mark it appends one JSON line with the window's counts to
 * the out FILE (docs/cost.md says what each number counts).
 *
 * Inclusive counting (x86-64 guests): a function becomes active when a
 * translation block starts at its entry; the return address is [RSP] at
 * that moment, and the function stays active until a block starts at that
 * address with RSP one slot higher.  Only where control arrives counts,
 * never how: an indirect call through a retpoline (`ret` into the
 * function) and a return through a return thunk (`jmp` to a shared
 * `ret`) are handled like a plain call and ret, and the thunk's own
 * instructions count as the function's.  An interrupt that arrives while
 * a function is active (a block starting at an irq entry) suspends it
 * until a block starts at the interrupted RIP with the interrupted RSP
 * (both read from the interrupt frame): those instructions are counted
 * apart, as irq_in_funcs.
 */

#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "cost-mark.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_FUNCS       16
#define MAX_IRQ         64
#define STACK_DEPTH     16
#define NAME_LEN        64

struct table {
    unsigned nfuncs, nirq;
    char name[MAX_FUNCS][NAME_LEN];
    uint64_t entry[MAX_FUNCS];
    uint64_t irq_lo[MAX_IRQ], irq_hi[MAX_IRQ];
};

struct active {
    unsigned func;
    unsigned level;         /* interrupt nesting when it was entered */
    uint64_t ret, rsp;      /* where and with which RSP it returns */
};

struct suspended {
    uint64_t rip, rsp;      /* interrupted point */
};

/* Per-vCPU state, one scoreboard element each. */
struct vcpu {
    uint64_t total;         /* inline: every instruction of every block */
    uint64_t armed;         /* inline condition of the block callback */
    uint64_t total_at_start;
    uint64_t funcs[MAX_FUNCS];
    uint64_t calls[MAX_FUNCS];
    uint64_t irq_in_funcs;
    uint64_t irq_entries;
    uint64_t overflow;
    unsigned nact, nsusp;
    struct active act[STACK_DEPTH];
    struct suspended susp[STACK_DEPTH];
    struct qemu_plugin_register *rsp_reg;
};

struct tbinfo {
    uint64_t vaddr;
    unsigned n;
};

struct markinfo {
    uint32_t kind;
    unsigned after;         /* instructions of the block after the mark */
};

static struct qemu_plugin_scoreboard *board;
static qemu_plugin_u64 sb_total, sb_armed;
static struct table *tab;           /* replaced whole at a start mark */
static GPtrArray *old_tabs;
static GMutex lock;                 /* marks, tbinfo cache, output */
static GHashTable *tbinfos;         /* vaddr -> tbinfo of each length */
static char *ranges_path, *out_path;
static unsigned windows;
static unsigned max_vcpu;

static struct vcpu *vcpu_of(unsigned int index)
{
    return qemu_plugin_scoreboard_find(board, index);
}

static uint64_t read_rsp(struct vcpu *v)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();
    uint64_t val = 0;

    if (v->rsp_reg && qemu_plugin_read_register(v->rsp_reg, buf) == 8) {
        memcpy(&val, buf->data, 8);     /* x86 is little-endian */
    }
    return val;
}

static bool read_u64(uint64_t addr, uint64_t *val)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();

    if (!qemu_plugin_read_memory_vaddr(addr, buf, 8)) {
        return false;
    }
    memcpy(val, buf->data, 8);
    return true;
}

static int func_at(const struct table *t, uint64_t vaddr)
{
    for (unsigned i = 0; i < t->nfuncs; i++) {
        if (t->entry[i] == vaddr) {
            return i;
        }
    }
    return -1;
}

static bool irq_at(const struct table *t, uint64_t vaddr)
{
    for (unsigned i = 0; i < t->nirq; i++) {
        if (vaddr >= t->irq_lo[i] && vaddr < t->irq_hi[i]) {
            return true;
        }
    }
    return false;
}

/* Runs at the start of every block while the window is open. */
static void on_tb(unsigned int vcpu_index, void *udata)
{
    const struct tbinfo *tb = udata;
    struct vcpu *v = vcpu_of(vcpu_index);
    const struct table *t = g_atomic_pointer_get(&tab);
    bool seen[MAX_FUNCS] = { false };
    bool suspended = false;
    int f;

    /* Back at the interrupted point: the suspended functions resume. */
    if (v->nsusp && tb->vaddr == v->susp[v->nsusp - 1].rip &&
        read_rsp(v) == v->susp[v->nsusp - 1].rsp) {
        v->nsusp--;
    }
    /* A block at the return address, one slot above the entry RSP. */
    if (v->nact && v->act[v->nact - 1].level == v->nsusp &&
        tb->vaddr == v->act[v->nact - 1].ret &&
        read_rsp(v) == v->act[v->nact - 1].rsp) {
        v->nact--;
    }
    if (v->nact && irq_at(t, tb->vaddr)) {
        uint64_t rsp = read_rsp(v), rip, old_rsp;

        /* 64-bit interrupt frame: RIP, CS, RFLAGS, RSP, SS. */
        v->irq_entries++;
        if (!read_u64(rsp, &rip) || !read_u64(rsp + 24, &old_rsp)) {
            v->overflow++;
        } else if (v->nsusp && v->susp[v->nsusp - 1].rip == rip &&
                   v->susp[v->nsusp - 1].rsp == old_rsp) {
            /*
             * Taken right after the previous handler's iret, before the
             * interrupted block ran again (a second pending vector): the
             * same suspension, still waiting for the same resume.
             */
        } else if (v->nsusp < STACK_DEPTH) {
            v->susp[v->nsusp].rip = rip;
            v->susp[v->nsusp].rsp = old_rsp;
            v->nsusp++;
        } else {
            v->overflow++;
        }
    }
    f = func_at(t, tb->vaddr);
    if (f >= 0) {
        uint64_t rsp = read_rsp(v), ret;

        if (v->nact < STACK_DEPTH && read_u64(rsp, &ret)) {
            v->act[v->nact].func = f;
            v->act[v->nact].level = v->nsusp;
            v->act[v->nact].ret = ret;
            v->act[v->nact].rsp = rsp + 8;
            v->nact++;
            v->calls[f]++;
        } else {
            v->overflow++;
        }
    }
    for (unsigned i = 0; i < v->nact; i++) {
        const struct active *a = &v->act[i];

        if (a->level != v->nsusp) {
            suspended = true;
        } else if (!seen[a->func]) {
            /* Recursion counts once per function. */
            seen[a->func] = true;
            v->funcs[a->func] += tb->n;
        }
    }
    if (suspended) {
        v->irq_in_funcs += tb->n;
    }
}

static bool parse_u64(const char *s, uint64_t *val)
{
    char *end;

    if (!s) {
        return false;
    }
    *val = g_ascii_strtoull(s, &end, 16);
    return end != s && *end == '\0';
}

/* Read the ranges file; NULL (and a message) if it is unusable. */
static struct table *load_table(void)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    struct table *t = g_new0(struct table, 1);

    if (!ranges_path) {
        return t;
    }
    if (!g_file_get_contents(ranges_path, &text, NULL, NULL)) {
        fprintf(stderr, "e1000epp-cost: cannot read %s\n", ranges_path);
        return t;
    }
    lines = g_strsplit(text, "\n", -1);
    for (unsigned i = 0; lines[i]; i++) {
        g_auto(GStrv) w = g_strsplit_set(g_strstrip(lines[i]), " \t", 4);
        uint64_t a, b;

        if (!w[0] || w[0][0] == '#' || w[0][0] == '\0') {
            continue;
        }
        if (strcmp(w[0], "func") == 0 && w[1] && parse_u64(w[2], &a) &&
            t->nfuncs < MAX_FUNCS) {
            g_strlcpy(t->name[t->nfuncs], w[1], NAME_LEN);
            t->entry[t->nfuncs++] = a;
        } else if (strcmp(w[0], "irq") == 0 && parse_u64(w[1], &a) &&
                   t->nirq < MAX_IRQ) {
            b = a + 1;
            if (w[2] && (!parse_u64(w[2], &b) || b <= a)) {
                fprintf(stderr, "e1000epp-cost: bad range line %u\n", i + 1);
                continue;
            }
            t->irq_lo[t->nirq] = a;
            t->irq_hi[t->nirq++] = b;
        } else {
            fprintf(stderr, "e1000epp-cost: %s:%u ignored\n", ranges_path,
                    i + 1);
        }
    }
    return t;
}

static void reset_vcpu(struct vcpu *v)
{
    memset(v->funcs, 0, sizeof(v->funcs));
    memset(v->calls, 0, sizeof(v->calls));
    v->irq_in_funcs = v->irq_entries = v->overflow = 0;
    v->nact = v->nsusp = 0;
    v->total_at_start = v->total;
}

static void window_start(unsigned int vcpu_index, unsigned after)
{
    struct table *t = load_table();

    g_ptr_array_add(old_tabs, g_atomic_pointer_get(&tab));
    g_atomic_pointer_set(&tab, t);
    for (unsigned i = 0; i <= max_vcpu; i++) {
        reset_vcpu(vcpu_of(i));
        qemu_plugin_u64_set(sb_armed, i, 1);
    }
    /* The block's inline add already counted what follows the mark. */
    vcpu_of(vcpu_index)->total_at_start -= after;
}

static void json_funcs(GString *s, const struct table *t,
                       const uint64_t *val)
{
    g_string_append_c(s, '{');
    for (unsigned f = 0; f < t->nfuncs; f++) {
        g_string_append_printf(s, "%s\"%s\": %" PRIu64, f ? ", " : "",
                               t->name[f], val[f]);
    }
    g_string_append_c(s, '}');
}

static void window_stop(unsigned int vcpu_index, unsigned after)
{
    const struct table *t = g_atomic_pointer_get(&tab);
    g_autoptr(GString) s = g_string_new(NULL);
    uint64_t sum[MAX_FUNCS] = { 0 }, calls[MAX_FUNCS] = { 0 };
    uint64_t insns = 0, irq = 0, irq_entries = 0, overflow = 0, open = 0;
    FILE *out;

    g_string_append_printf(s, "{\"window\": %u, \"vcpus\": [", ++windows);
    for (unsigned i = 0; i <= max_vcpu; i++) {
        struct vcpu *v = vcpu_of(i);
        uint64_t n = v->total - v->total_at_start - (i == vcpu_index ?
                                                     after : 0);

        qemu_plugin_u64_set(sb_armed, i, 0);
        g_string_append_printf(s, "%s{\"insns\": %" PRIu64 ", \"funcs\": ",
                               i ? ", " : "", n);
        json_funcs(s, t, v->funcs);
        g_string_append_printf(s, ", \"irq_in_funcs\": %" PRIu64 "}",
                               v->irq_in_funcs);
        insns += n;
        irq += v->irq_in_funcs;
        irq_entries += v->irq_entries;
        overflow += v->overflow;
        open += v->nact;
        for (unsigned f = 0; f < t->nfuncs; f++) {
            sum[f] += v->funcs[f];
            calls[f] += v->calls[f];
        }
    }
    g_string_append_printf(s, "], \"insns\": %" PRIu64 ", \"funcs\": ",
                           insns);
    json_funcs(s, t, sum);
    g_string_append(s, ", \"calls\": ");
    json_funcs(s, t, calls);
    g_string_append_printf(s, ", \"irq_in_funcs\": %" PRIu64
                           ", \"irq_entries\": %" PRIu64
                           ", \"open\": %" PRIu64 ", \"overflow\": %" PRIu64
                           ", \"irq_ranges\": %u}\n",
                           irq, irq_entries, open, overflow, t->nirq);
    out = out_path ? fopen(out_path, "a") : stderr;
    if (!out) {
        fprintf(stderr, "e1000epp-cost: cannot append to %s\n", out_path);
        return;
    }
    fputs(s->str, out);
    if (out != stderr) {
        fclose(out);
    }
}

static void on_mark(unsigned int vcpu_index, void *udata)
{
    const struct markinfo *m = udata;

    g_mutex_lock(&lock);
    if (m->kind == COST_MARK_START) {
        window_start(vcpu_index, m->after);
    } else {
        window_stop(vcpu_index, m->after);
    }
    g_mutex_unlock(&lock);
}

static struct tbinfo *tbinfo_for(uint64_t vaddr, unsigned n)
{
    /*
     * One record per (start, length), kept for the life of the process:
     * a retranslated block reuses it, and no block ever points to a
     * freed one.
     */
    struct tbinfo *info = NULL;
    GPtrArray *same;

    g_mutex_lock(&lock);
    same = g_hash_table_lookup(tbinfos, &vaddr);
    if (!same) {
        uint64_t *k = g_new(uint64_t, 1);

        *k = vaddr;
        same = g_ptr_array_new_with_free_func(g_free);
        g_hash_table_insert(tbinfos, k, same);
    }
    for (guint i = 0; i < same->len && !info; i++) {
        struct tbinfo *c = g_ptr_array_index(same, i);

        if (c->n == n) {
            info = c;
        }
    }
    if (!info) {
        info = g_new(struct tbinfo, 1);
        info->vaddr = vaddr;
        info->n = n;
        g_ptr_array_add(same, info);
    }
    g_mutex_unlock(&lock);
    return info;
}

static void on_translate(G_GNUC_UNUSED qemu_plugin_id_t id,
                         struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);

    qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
        tb, QEMU_PLUGIN_INLINE_ADD_U64, sb_total, n);
    qemu_plugin_register_vcpu_tb_exec_cond_cb(
        tb, on_tb, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_COND_NE, sb_armed, 0,
        tbinfo_for(qemu_plugin_tb_vaddr(tb), n));
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint32_t word[2];
        struct markinfo *m;

        if (qemu_plugin_insn_size(insn) != sizeof(word) ||
            qemu_plugin_insn_data(insn, word, sizeof(word)) != sizeof(word)) {
            continue;
        }
        if (GUINT32_FROM_LE(word[0]) != COST_MARK_OPCODE ||
            (GUINT32_FROM_LE(word[1]) != COST_MARK_START &&
             GUINT32_FROM_LE(word[1]) != COST_MARK_STOP)) {
            continue;
        }
        /* Kept for the life of the process: blocks may be retranslated. */
        m = g_new(struct markinfo, 1);
        m->kind = GUINT32_FROM_LE(word[1]);
        m->after = n - 1 - i;
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
                                               QEMU_PLUGIN_CB_NO_REGS, m);
    }
}

static void on_vcpu_init(G_GNUC_UNUSED qemu_plugin_id_t id,
                         unsigned int vcpu_index)
{
    g_autoptr(GArray) regs = qemu_plugin_get_registers();
    struct vcpu *v = vcpu_of(vcpu_index);

    g_mutex_lock(&lock);
    if (vcpu_index > max_vcpu) {
        max_vcpu = vcpu_index;
    }
    g_mutex_unlock(&lock);
    for (guint i = 0; regs && i < regs->len; i++) {
        qemu_plugin_reg_descriptor *r =
            &g_array_index(regs, qemu_plugin_reg_descriptor, i);

        if (strcmp(r->name, "rsp") == 0) {
            v->rsp_reg = r->handle;
        }
    }
    if (!v->rsp_reg) {
        fprintf(stderr, "e1000epp-cost: vCPU %u has no rsp register: "
                "function counts need an x86-64 guest\n", vcpu_index);
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        g_auto(GStrv) kv = g_strsplit(argv[i], "=", 2);

        if (kv[0] && kv[1] && strcmp(kv[0], "ranges") == 0) {
            ranges_path = g_strdup(kv[1]);
        } else if (kv[0] && kv[1] && strcmp(kv[0], "out") == 0) {
            out_path = g_strdup(kv[1]);
        } else {
            fprintf(stderr, "e1000epp-cost: unknown option %s "
                    "(ranges=FILE, out=FILE)\n", argv[i]);
            return -1;
        }
    }
    if (strcmp(info->target_name, "x86_64") != 0) {
        fprintf(stderr, "e1000epp-cost: target %s: function counts read "
                "x86-64 stacks only\n", info->target_name);
    }
    board = qemu_plugin_scoreboard_new(sizeof(struct vcpu));
    sb_total = qemu_plugin_scoreboard_u64_in_struct(board, struct vcpu,
                                                    total);
    sb_armed = qemu_plugin_scoreboard_u64_in_struct(board, struct vcpu,
                                                    armed);
    tab = g_new0(struct table, 1);
    old_tabs = g_ptr_array_new_with_free_func(g_free);
    tbinfos = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                    (GDestroyNotify)g_ptr_array_unref);
    qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    return 0;
}
