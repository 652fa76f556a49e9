/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The register table (82574L datasheet chapter 10) and the BAR0 dispatch.
 *
 * Every register the model knows is one row: name, offset, access
 * behaviour, reset value, writable bits and optional handlers. Array
 * registers (MTA, RAL/RAH, VFTA, ...) are single rows with a count.
 * Read and write look the row up, trace, and either call the handler or
 * apply the named behaviour.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define R(n, off, acc, rst, mask) \
    { .name = n, .offset = off, .count = 1, .access = acc, \
      .reset = rst, .wmask = mask }
#define RH(n, off, acc, rst, mask, rd, wr) \
    { .name = n, .offset = off, .count = 1, .access = acc, \
      .reset = rst, .wmask = mask, .read = rd, .write = wr }
#define RA(n, off, cnt, rst, mask) \
    { .name = n, .offset = off, .count = cnt, .access = REG_RW, \
      .reset = rst, .wmask = mask }
#define STAT(n, off)    R(n, off, REG_RC, 0, 0)
#define STAT_HIGH(n, off) R(n, off, REG_RC_HIGH, 0, 0)

const RegInfo e1000e_pp_reg_table[] = {
    /* §10.2.2 General */
    RH("CTRL", CTRL, REG_RW, 0x00100248, 0xffffffff,
       NULL, e1000e_pp_ctrl_write),
    RH("CTRL_DUP", 0x00004, REG_RW, 0x00100248, 0xffffffff,
       NULL, e1000e_pp_ctrl_write),
    RH("STATUS", STATUS, REG_RW, 0, 0,
       e1000e_pp_status_read, e1000e_pp_status_write),
    RH("EECD", EECD, REG_RW, 0, 0,
       e1000e_pp_eecd_read, e1000e_pp_eecd_write),
    RH("EERD", EERD, REG_RW, EERD_DONE, 0, NULL, e1000e_pp_eerd_write),
    RH("CTRL_EXT", CTRL_EXT, REG_RW, 0, 0xffffffff,
       NULL, e1000e_pp_ctrl_ext_write),
    R("FLA", FLA, REG_RW, 0, 0xffffffff),
    RH("MDIC", MDIC, REG_RW, MDIC_READY, 0, NULL, e1000e_pp_mdic_write),
    R("FCAL", FCAL, REG_RW, 0, 0xffffffff),
    R("FCAH", FCAH, REG_RW, 0, 0x0000ffff),
    R("FCT", FCT, REG_RW, 0, 0x0000ffff),
    R("VET", VET, REG_RW, 0x8100, 0x0000ffff),
    R("FCTTV", FCTTV, REG_RW, 0, 0x0000ffff),
    R("TXCW", TXCW, REG_RW, 0, 0xc000ffff),
    R("RXCW", RXCW, REG_RO, 0, 0),
    R("LEDCTL", LEDCTL, REG_RW, 0x07068302, 0xffffffff),
    R("EXTCNF_CTRL", EXTCNF_CTRL, REG_RW, 0, 0xffffffff),
    R("EXTCNF_SIZE", EXTCNF_SIZE, REG_RW, 0, 0xffffffff),
    R("PHY_CTRL", PHY_CTRL, REG_RW, 0, 0xffffffff),
    RH("PBA", PBA, REG_RW, 0x00140014, PBA_RXA_MASK,
       e1000e_pp_pba_read, NULL),
    R("PBS", PBS, REG_RO, PBA_TOTAL_KB, 0),
    R("EEMNGCTL", EEMNGCTL, REG_RW, 0, 0),
    RH("EEWR", EEWR, REG_RW, EERD_DONE, 0, NULL, e1000e_pp_eewr_write),
    R("FLASHT", FLASHT, REG_RW, 0, 0xffffffff),
    R("FLSWCTL", FLSWCTL, REG_RW, 0, 0xffffffff),
    R("FLSWDATA", FLSWDATA, REG_RW, 0, 0xffffffff),
    R("FLSWCNT", FLSWCNT, REG_RW, 0, 0xffffffff),
    R("FLOP", FLOP, REG_RW, 0, 0xffffffff),
    R("FLOL", FLOL, REG_RW, 0, 0xffffffff),

    /* §10.2.4 Interrupts */
    RH("ICR", ICR, REG_RW, 0, 0, e1000e_pp_icr_read, e1000e_pp_icr_write),
    R("ITR", ITR, REG_RW, 0, 0x0000ffff),
    RH("ICS", ICS, REG_WO, 0, 0, NULL, e1000e_pp_ics_write),
    RH("IMS", IMS, REG_RW, 0, 0, NULL, e1000e_pp_ims_write),
    RH("IMC", IMC, REG_WO, 0, 0, NULL, e1000e_pp_imc_write),
    R("EIAC", EIAC, REG_RW, 0, 0x01f00000),
    R("IAM", IAM, REG_RW, 0, 0xffffffff),
    R("IVAR", IVAR, REG_RW, 0, 0x800fffff),
    RA("EITR", EITR(0), E1000E_PP_MSIX_VECTORS, 0, 0x0000ffff),

    /* §10.2.5 Receive */
    RH("RCTL", RCTL, REG_RW, 0, 0x7fffbffe, NULL, e1000e_pp_rctl_write),
    R("FCRTL", FCRTL, REG_RW, 0, 0x8000fff8),
    R("FCRTH", FCRTH, REG_RW, 0, 0x0000fff8),
    R("PSRCTL", PSRCTL, REG_RW, 0x00040402, 0x3f3f3f7f),
    R("RDBAL", RDBAL, REG_RW, 0, 0xfffffff0),
    R("RDBAH", RDBAH, REG_RW, 0, 0xffffffff),
    R("RDLEN", RDLEN, REG_RW, 0, 0x000fff80),
    R("RDH", RDH, REG_RW, 0, 0x0000ffff),
    RH("RDT", RDT, REG_RW, 0, 0x0000ffff, NULL, e1000e_pp_rdt_write),
    RH("RDTR", RDTR, REG_RW, 0, 0x0000ffff, NULL, e1000e_pp_rdtr_write),
    R("RXDCTL", RXDCTL, REG_RW, 0x00010000, 0x013f3f3f),
    R("RADV", RADV, REG_RW, 0, 0x0000ffff),
    R("RDBAL1", RDBAL1, REG_RW, 0, 0xfffffff0),
    R("RDBAH1", RDBAH1, REG_RW, 0, 0xffffffff),
    R("RDLEN1", RDLEN1, REG_RW, 0, 0x000fff80),
    R("RDH1", RDH1, REG_RW, 0, 0x0000ffff),
    R("RDT1", RDT1, REG_RW, 0, 0x0000ffff),
    R("RXDCTL1", RXDCTL1, REG_RW, 0x00010000, 0x013f3f3f),
    R("RSRPD", RSRPD, REG_RW, 0, 0x00000fff),
    R("RAID", RAID, REG_RW, 0, 0x0000ffff),
    R("RDFH", RDFH, REG_RW, 0, 0x00001fff),
    R("RDFT", RDFT, REG_RW, 0, 0x00001fff),
    R("RDFHS", RDFHS, REG_RW, 0, 0x00001fff),
    R("RDFTS", RDFTS, REG_RW, 0, 0x00001fff),
    R("RDFPC", RDFPC, REG_RW, 0, 0x00001fff),
    R("RXCSUM", RXCSUM, REG_RW, RXCSUM_IPOFL | RXCSUM_TUOFL, 0x000033ff),
    R("RFCTL", RFCTL, REG_RW, 0, 0x0003ffff),
    RA("MTA", MTA, MTA_WORDS, 0, 0xffffffff),
    /* RAL/RAH interleave; each is an array with a stride of 8 bytes. */
    { .name = "RAL", .offset = RAL(0), .count = RA_ENTRIES,
      .access = REG_RW, .wmask = 0xffffffff },
    { .name = "RAH", .offset = RAH(0), .count = RA_ENTRIES,
      .access = REG_RW, .wmask = 0x8003ffff },
    RA("VFTA", VFTA, VFTA_WORDS, 0, 0xffffffff),
    R("MRQC", MRQC, REG_RW, 0, 0x003f0003),
    RA("RETA", RETA, RETA_WORDS, 0, 0xffffffff),
    RA("RSSRK", RSSRK, RSSRK_WORDS, 0, 0xffffffff),

    /* §10.2.6 Transmit */
    RH("TCTL", TCTL, REG_RW, 0, 0xffffffff, NULL, e1000e_pp_tctl_write),
    R("TCTL_EXT", TCTL_EXT, REG_RW, 0, 0xffffffff),
    R("TIPG", TIPG, REG_RW, 0x00602008, 0x3fffffff),
    R("AIT", AIT, REG_RW, 0, 0x0000ffff),
    R("TDBAL", TDBAL, REG_RW, 0, 0xfffffff0),
    R("TDBAH", TDBAH, REG_RW, 0, 0xffffffff),
    R("TDLEN", TDLEN, REG_RW, 0, 0x000fff80),
    R("TDH", TDH, REG_RW, 0, 0x0000ffff),
    RH("TDT", TDT, REG_RW, 0, 0x0000ffff, NULL, e1000e_pp_tdt_write),
    RH("TIDV", TIDV, REG_RW, 0, 0x0000ffff, NULL, e1000e_pp_tidv_write),
    R("TXDCTL", TXDCTL, REG_RW, 0, 0x017f3f3f),
    R("TADV", TADV, REG_RW, 0, 0x0000ffff),
    R("TARC0", TARC0, REG_RW, 0x00000403, 0xffffffff),
    R("TDBAL1", TDBAL1, REG_RW, 0, 0xfffffff0),
    R("TDBAH1", TDBAH1, REG_RW, 0, 0xffffffff),
    R("TDLEN1", TDLEN1, REG_RW, 0, 0x000fff80),
    R("TDH1", TDH1, REG_RW, 0, 0x0000ffff),
    R("TDT1", TDT1, REG_RW, 0, 0x0000ffff),
    R("TXDCTL1", TXDCTL1, REG_RW, 0x00010000, 0x017f3f3f),
    R("TARC1", TARC1, REG_RW, 0x00000403, 0xffffffff),
    R("TDFH", TDFH, REG_RW, 0, 0x00001fff),
    R("TDFT", TDFT, REG_RW, 0, 0x00001fff),
    R("TDFHS", TDFHS, REG_RW, 0, 0x00001fff),
    R("TDFTS", TDFTS, REG_RW, 0, 0x00001fff),
    R("TDFPC", TDFPC, REG_RW, 0, 0x00001fff),

    /* §10.2.7 Statistics */
    STAT("CRCERRS", CRCERRS), STAT("ALGNERRC", ALGNERRC),
    STAT("SYMERRS", SYMERRS), STAT("SEC", SEC),
    STAT("RXERRC", RXERRC), STAT("MPC", MPC), STAT("SCC", SCC),
    STAT("ECOL", ECOL), STAT("MCC", MCC), STAT("LATECOL", LATECOL),
    STAT("COLC", COLC), STAT("DC", DC), STAT("TNCRS", TNCRS),
    STAT("CEXTERR", CEXTERR), STAT("RLEC", RLEC),
    STAT("XONRXC", XONRXC), STAT("XONTXC", XONTXC),
    STAT("XOFFRXC", XOFFRXC), STAT("XOFFTXC", XOFFTXC),
    STAT("FCRUC", FCRUC), STAT("PRC64", PRC64), STAT("PRC127", PRC127),
    STAT("PRC255", PRC255), STAT("PRC511", PRC511),
    STAT("PRC1023", PRC1023), STAT("PRC1522", PRC1522),
    STAT("GPRC", GPRC), STAT("BPRC", BPRC), STAT("MPRC", MPRC),
    STAT("GPTC", GPTC),
    STAT("GORCL", GORCL), STAT_HIGH("GORCH", GORCH),
    STAT("GOTCL", GOTCL), STAT_HIGH("GOTCH", GOTCH),
    STAT("RNBC", RNBC), STAT("RUC", RUC), STAT("RFC", RFC),
    STAT("ROC", ROC), STAT("RJC", RJC), STAT("MGTPRC", MGTPRC),
    STAT("MGTPDC", MGTPDC), STAT("MGTPTC", MGTPTC),
    STAT("TORL", TORL), STAT_HIGH("TORH", TORH),
    STAT("TOTL", TOTL), STAT_HIGH("TOTH", TOTH),
    STAT("TPR", TPR), STAT("TPT", TPT), STAT("PTC64", PTC64),
    STAT("PTC127", PTC127), STAT("PTC255", PTC255),
    STAT("PTC511", PTC511), STAT("PTC1023", PTC1023),
    STAT("PTC1522", PTC1522), STAT("MPTC", MPTC), STAT("BPTC", BPTC),
    STAT("TSCTC", TSCTC), STAT("TSCTFC", TSCTFC), STAT("IAC", IAC),
    STAT("ICRXPTC", ICRXPTC), STAT("ICRXATC", ICRXATC),
    STAT("ICTXPTC", ICTXPTC), STAT("ICTXATC", ICTXATC),
    STAT("ICTXQEC", ICTXQEC), STAT("ICTXQMTC", ICTXQMTC),
    STAT("ICRXDMTC", ICRXDMTC), STAT("ICRXOC", ICRXOC),

    /* §10.2.8 Wake-up, management, PCIe */
    R("WUC", WUC, REG_RW, 0, 0x0000001f),
    R("WUFC", WUFC, REG_RW, 0, 0x000f80ff),
    R("WUS", WUS, REG_RW, 0, 0),
    R("MANC", MANC, REG_RW, 0, 0xffffffff),
    R("MANC2H", MANC2H, REG_RW, 0, 0xffffffff),
    R("IPAV", IPAV, REG_RW, 0, 0xffffffff),
    R("GCR", GCR, REG_RW, 0, 0xffffffff),
    R("GSCL_1", GSCL_1, REG_RW, 0, 0xffffffff),
    R("GSCL_2", GSCL_2, REG_RW, 0, 0xffffffff),
    R("GSCL_3", GSCL_3, REG_RW, 0, 0xffffffff),
    R("GSCL_4", GSCL_4, REG_RW, 0, 0xffffffff),
    R("FACTPS", FACTPS, REG_RW, 0, 0xffffffff),
    R("FUNCTAG", FUNCTAG, REG_RW, 0, 0xffffffff),
    RH("SWSM", SWSM, REG_RW, 0, SWSM_SMBI | SWSM_SWESMBI,
       e1000e_pp_swsm_read, NULL),
    R("FWSM", FWSM, REG_RO, 0, 0),
    R("GCR2", GCR2, REG_RW, 0, 0xffffffff),
    R("POEMB", POEMB, REG_RW, 0, 0xffffffff),

    /* §10.2.9 Time sync */
    RH("SYSTIML", SYSTIML, REG_RW, 0, 0xffffffff,
       e1000e_pp_systiml_read, e1000e_pp_systim_write),
    RH("SYSTIMH", SYSTIMH, REG_RW, 0, 0xffffffff,
       e1000e_pp_systimh_read, e1000e_pp_systim_write),
    RH("TIMINCA", TIMINCA, REG_RW, 0, 0xffffffff,
       NULL, e1000e_pp_timinca_write),
    RH("TIMADJL", TIMADJL, REG_RW, 0, 0xffffffff,
       NULL, e1000e_pp_timadj_write),
    RH("TIMADJH", TIMADJH, REG_RW, 0, 0xffffffff,
       NULL, e1000e_pp_timadj_write),
    R("TSYNCTXCTL", TSYNCTXCTL, REG_RW, 0, 0x00000010),
    RH("TXSTMPL", TXSTMPL, REG_RO, 0, 0, e1000e_pp_stamp_read, NULL),
    RH("TXSTMPH", TXSTMPH, REG_RO, 0, 0, e1000e_pp_stamp_read, NULL),
    R("TSYNCRXCTL", TSYNCRXCTL, REG_RW, 0, 0x0000001e),
    RH("RXSTMPL", RXSTMPL, REG_RO, 0, 0, e1000e_pp_stamp_read, NULL),
    RH("RXSTMPH", RXSTMPH, REG_RO, 0, 0, e1000e_pp_stamp_read, NULL),
    R("RXSATRL", RXSATRL, REG_RO, 0, 0),
    R("RXSATRH", RXSATRH, REG_RO, 0, 0),
    R("RXCFGL", RXCFGL, REG_RW, 0x000088f7, 0x0000ffff),
    R("RXUDP", RXUDP, REG_RW, 0x00000319, 0x0000ffff),
};
const size_t e1000e_pp_reg_table_len = ARRAY_LEN(e1000e_pp_reg_table);

/* Row index + 1 for every dword of BAR0; 0 marks an unknown offset. */
static uint16_t reg_index[REG_WORDS];
static bool reg_index_built;

static uint32_t reg_stride(const RegInfo *ri)
{
    /* RAL and RAH alternate, so each of them steps by 8 bytes. */
    return (ri->offset >= RAL(0) && ri->offset <= RAH(RA_ENTRIES - 1)) ?
           8 : 4;
}

static void reg_index_build(void)
{
    size_t i;
    unsigned n;

    for (i = 0; i < e1000e_pp_reg_table_len; i++) {
        const RegInfo *ri = &e1000e_pp_reg_table[i];
        for (n = 0; n < ri->count; n++) {
            uint32_t off = ri->offset + n * reg_stride(ri);
            reg_index[off >> 2] = (uint16_t)(i + 1);
        }
    }
    reg_index_built = true;
}

const RegInfo *e1000e_pp_reg_lookup(uint32_t offset)
{
    uint16_t idx;

    if (!reg_index_built) {
        reg_index_build();
    }
    if (offset >= REG_SPACE_BYTES) {
        return NULL;
    }
    idx = reg_index[offset >> 2];
    return idx ? &e1000e_pp_reg_table[idx - 1] : NULL;
}

void e1000e_pp_log(E1000EPPCore *c, E1000EPPLog kind, uint32_t off,
                   const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    uint8_t bit = 1u << kind;

    /* Once per register and kind, so a looping guest cannot flood. */
    if (off < REG_SPACE_BYTES) {
        if (c->logged[off >> 2] & bit) {
            return;
        }
        c->logged[off >> 2] |= bit;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    c->plat->log(c->opaque, kind, msg);
}

void e1000e_pp_regs_reset(E1000EPPCore *c, bool keep_pba)
{
    uint32_t pba = REG(c, PBA);
    size_t i;
    unsigned n;

    memset(c->regs, 0, sizeof(c->regs));
    for (i = 0; i < e1000e_pp_reg_table_len; i++) {
        const RegInfo *ri = &e1000e_pp_reg_table[i];
        for (n = 0; n < ri->count; n++) {
            c->regs[(ri->offset + n * reg_stride(ri)) >> 2] = ri->reset;
        }
    }
    /* CTRL.RST keeps the PBA split (docs/fidelity.md: a model choice). */
    if (keep_pba) {
        REG(c, PBA) = pba;
    }
}

void e1000e_pp_store(E1000EPPCore *c, const RegInfo *ri, uint32_t off,
                     uint32_t val)
{
    uint32_t *r = &c->regs[off >> 2];

    *r = (*r & ~ri->wmask) | (val & ri->wmask);
}

uint32_t e1000e_pp_read(E1000EPPCore *c, uint32_t offset)
{
    const RegInfo *ri = e1000e_pp_reg_lookup(offset & ~3u);
    uint32_t off = offset & ~3u;
    uint32_t val;

    if (!ri) {
        e1000e_pp_log(c, E1000E_PP_LOG_UNIMP, off,
                      "read of unmodelled register 0x%05x", off);
        return 0;
    }
    if (ri->read) {
        val = ri->read(c, off);
    } else {
        val = c->regs[off >> 2];
        switch (ri->access) {
        case REG_WO:
            val = 0;
            break;
        case REG_RC:
            c->regs[off >> 2] = 0;
            break;
        case REG_RC_HIGH:
            c->regs[off >> 2] = 0;
            c->regs[(off >> 2) - 1] = 0;
            break;
        default:
            break;
        }
    }
    if (c->plat->trace_reg) {
        c->plat->trace_reg(c->opaque, 0, ri->name, off, val);
    }
    return val;
}

void e1000e_pp_write(E1000EPPCore *c, uint32_t offset, uint32_t value)
{
    uint32_t off = offset & ~3u;
    const RegInfo *ri = e1000e_pp_reg_lookup(off);

    if (!ri) {
        e1000e_pp_log(c, E1000E_PP_LOG_UNIMP, off,
                      "write 0x%08x to unmodelled register 0x%05x",
                      value, off);
        return;
    }
    if (c->plat->trace_reg) {
        c->plat->trace_reg(c->opaque, 1, ri->name, off, value);
    }
    if (ri->write) {
        ri->write(c, off, value);
        return;
    }
    switch (ri->access) {
    case REG_RO:
    case REG_RC:
    case REG_RC_HIGH:
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, off,
                      "write 0x%08x to read-only register %s",
                      value, ri->name);
        return;
    default:
        e1000e_pp_store(c, ri, off, value);
    }
}
