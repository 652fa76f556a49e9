/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The register table (82574L datasheet chapter 10) and the BAR0 dispatch.
 *
 * Every register the model knows is one row: name, datasheet section,
 * offset, access behaviour, reset value, writable bits, and optional
 * read and post-write hooks. Array registers (MTA, RAL/RAH, VFTA, ...)
 * are single rows with a count and a stride. The dispatch looks the row
 * up, traces, applies the behaviour (the hooks never store what the
 * guest wrote), calls the hook and leaves the rest to the settle step.
 * Registers the driver may touch but the model does not implement are
 * REG_UNIMP rows: stored, listed (e1000e_pp_unimplemented) and logged.
 */
#include <string.h>

#include "common.h"
#include "general.h"
#include "intr.h"
#include "log.h"
#include "moderation.h"
#include "nvm.h"
#include "phy.h"
#include "power.h"
#include "regtable.h"
#include "rx.h"
#include "rxcache.h"
#include "settle.h"
#include "timesync.h"
#include "tx.h"

/* Datasheet sections of the register groups (82574L chapter 10). */
#define S_GEN   "10.2.2"
#define S_INT   "10.2.4"
#define S_RX    "10.2.5"
#define S_TX    "10.2.6"
#define S_STAT  "10.2.7"
#define S_WAKE  "10.2.8"
#define S_TS    "10.2.9"

#define R(sec, n, off, acc, rst, mask) \
    { .name = n, .section = sec, .offset = off, .count = 1, .access = acc, \
      .reset = rst, .wmask = mask }
#define RH(sec, n, off, acc, rst, mask, rd, wr) \
    { .name = n, .section = sec, .offset = off, .count = 1, .access = acc, \
      .reset = rst, .wmask = mask, .read = rd, .post_write = wr }
#define RA(sec, n, off, cnt, rst, mask) \
    { .name = n, .section = sec, .offset = off, .count = cnt, \
      .access = REG_RW, .reset = rst, .wmask = mask }
/* Stored for the guest to read back; the behaviour is not modelled. */
#define UNIMP(sec, n, off, rst, mask) R(sec, n, off, REG_UNIMP, rst, mask)
#define STAT(n, off)    R(S_STAT, n, off, REG_RC, 0, 0)
#define STAT_HIGH(n, off) R(S_STAT, n, off, REG_RC_HIGH, 0, 0)

const RegInfo e1000e_pp_reg_table[] = {
    /* §10.2.2 General */
    /* RST and PHY_RST act when written and read back as 0. */
    { .name = "CTRL", .section = S_GEN, .offset = CTRL, .count = 1,
      .access = REG_RW, .reset = 0x00100248, .wmask = 0xffffffff,
      .action = CTRL_RST | CTRL_PHY_RST,
      .post_write = e1000e_pp_ctrl_write },
    { .name = "CTRL_DUP", .section = S_GEN, .offset = CTRL_DUP, .count = 1,
      .access = REG_ALIAS, .target = CTRL },
    RH(S_GEN, "STATUS", STATUS, REG_RW, 0, 0,
       e1000e_pp_status_read, e1000e_pp_status_write),
    RH(S_GEN, "EECD", EECD, REG_RW, 0, EECD_REQ | EECD_AUPDEN,
       e1000e_pp_eecd_read, e1000e_pp_eecd_write),
    RH(S_GEN, "EERD", EERD, REG_RW, EERD_DONE, 0, NULL, e1000e_pp_eerd_write),
    { .name = "CTRL_EXT", .section = S_GEN, .offset = CTRL_EXT, .count = 1,
      .access = REG_RW, .wmask = 0xffffffff, .action = CTRL_EXT_EE_RST,
      .post_write = e1000e_pp_ctrl_ext_write },
    UNIMP(S_GEN, "FLA", FLA, 0, 0xffffffff),
    RH(S_GEN, "MDIC", MDIC, REG_RW, MDIC_READY, 0, NULL, e1000e_pp_mdic_write),
    R(S_GEN, "FCAL", FCAL, REG_RW, 0, 0xffffffff),
    R(S_GEN, "FCAH", FCAH, REG_RW, 0, 0x0000ffff),
    R(S_GEN, "FCT", FCT, REG_RW, 0, 0x0000ffff),
    R(S_GEN, "VET", VET, REG_RW, 0x8100, 0x0000ffff),
    R(S_GEN, "FCTTV", FCTTV, REG_RW, 0, 0x0000ffff),
    /* SerDes only: storage is all a copper 82574L does with TXCW. */
    R(S_GEN, "TXCW", TXCW, REG_RW, 0, 0xc000ffff),
    R(S_GEN, "RXCW", RXCW, REG_RO, 0, 0),
    R(S_GEN, "LEDCTL", LEDCTL, REG_RW, 0x07068302, 0xffffffff),
    R(S_GEN, "EXTCNF_CTRL", EXTCNF_CTRL, REG_RW, 0, 0xffffffff),
    R(S_GEN, "EXTCNF_SIZE", EXTCNF_SIZE, REG_RW, 0, 0xffffffff),
    R(S_GEN, "PHY_CTRL", PHY_CTRL, REG_RW, 0, 0xffffffff),
    RH(S_GEN, "PBA", PBA, REG_RW, 0x00140014, PBA_RXA_MASK,
       e1000e_pp_pba_read, NULL),
    R(S_GEN, "PBS", PBS, REG_RO, PBA_TOTAL_KB, 0),
    R(S_GEN, "EEMNGCTL", EEMNGCTL, REG_RW, 0, 0),
    RH(S_GEN, "EEWR", EEWR, REG_RW, EERD_DONE, 0, NULL, e1000e_pp_eewr_write),
    UNIMP(S_GEN, "FLASHT", FLASHT, 0, 0xffffffff),
    UNIMP(S_GEN, "FLSWCTL", FLSWCTL, 0, 0xffffffff),
    UNIMP(S_GEN, "FLSWDATA", FLSWDATA, 0, 0xffffffff),
    UNIMP(S_GEN, "FLSWCNT", FLSWCNT, 0, 0xffffffff),
    UNIMP(S_GEN, "FLOP", FLOP, 0, 0xffffffff),
    UNIMP(S_GEN, "FLOL", FLOL, 0, 0xffffffff),

    /* §10.2.4 Interrupts */
    /* Low Power Idle control of later parts: the 82574L has no EEE. */
    R(S_INT, "LPIC", LPIC, REG_RO, 0, 0),
    /* INT_ASSERTED (bit 31) follows the line: a written 1 clears no cause. */
    RH(S_INT, "ICR", ICR, REG_W1C, 0, 0x7fffffff,
       e1000e_pp_icr_read, e1000e_pp_intr_changed),
    R(S_INT, "ITR", ITR, REG_RW, 0, 0x0000ffff),
    RH(S_INT, "ICS", ICS, REG_WO, 0, 0, NULL, e1000e_pp_ics_write),
    { .name = "IMS", .section = S_INT, .offset = IMS, .count = 1,
      .access = REG_SET, .wmask = IMS_VALID, .target = IMS,
      .post_write = e1000e_pp_ims_write },
    { .name = "IMC", .section = S_INT, .offset = IMC, .count = 1,
      .access = REG_CLR, .wmask = 0xffffffff, .target = IMS,
      .post_write = e1000e_pp_intr_changed },
    R(S_INT, "EIAC", EIAC, REG_RW, 0, 0x01f00000),
    R(S_INT, "IAM", IAM, REG_RW, 0, 0xffffffff),
    R(S_INT, "IVAR", IVAR, REG_RW, 0, 0x800fffff),
    RA(S_INT, "EITR", EITR(0), E1000E_PP_MSIX_VECTORS, 0, 0x0000ffff),

    /* §10.2.5 Receive */
    RH(S_RX, "RCTL", RCTL, REG_RW, 0, 0x7fffbffe, NULL, e1000e_pp_rctl_write),
    /*
     * The DMA may start before a frame's end is in the packet buffer;
     * here a frame enters the buffer whole, so the value only reads back.
     */
    R(S_RX, "ERT", ERT, REG_RW, 0, ERT_MASK),
    R(S_RX, "FCRTL", FCRTL, REG_RW, 0, 0x8000fff8),
    R(S_RX, "FCRTH", FCRTH, REG_RW, 0, 0x0000fff8),
    RH(S_RX, "PSRCTL", PSRCTL, REG_RW, 0x00040402, 0x3f3f3f7f,
       NULL, e1000e_pp_rdh_write),
    RH(S_RX, "RDBAL", RDBAL, REG_RW, 0, 0xfffffff0,
       NULL, e1000e_pp_rxcache_ring_set),
    RH(S_RX, "RDBAH", RDBAH, REG_RW, 0, 0xffffffff,
       NULL, e1000e_pp_rxcache_ring_set),
    RH(S_RX, "RDLEN", RDLEN, REG_RW, 0, 0x000fff80,
       NULL, e1000e_pp_rxcache_ring_set),
    RH(S_RX, "RDH", RDH, REG_RW, 0, 0x0000ffff, NULL, e1000e_pp_rdh_write),
    RH(S_RX, "RDT", RDT, REG_RW, 0, 0x0000ffff, NULL, e1000e_pp_rdt_write),
    /* FPD (bit 31) flushes when written 1 and reads back as 0. */
    { .name = "RDTR", .section = S_RX, .offset = RDTR, .count = 1,
      .access = REG_RW, .wmask = 0x8000ffff, .action = DELAY_FPD,
      .post_write = e1000e_pp_rdtr_write },
    R(S_RX, "RXDCTL", RXDCTL, REG_RW, 0x00010000, 0x013f3f3f),
    R(S_RX, "RADV", RADV, REG_RW, 0, 0x0000ffff),
    UNIMP(S_RX, "RDBAL1", RDBAL1, 0, 0xfffffff0),
    UNIMP(S_RX, "RDBAH1", RDBAH1, 0, 0xffffffff),
    UNIMP(S_RX, "RDLEN1", RDLEN1, 0, 0x000fff80),
    UNIMP(S_RX, "RDH1", RDH1, 0, 0x0000ffff),
    UNIMP(S_RX, "RDT1", RDT1, 0, 0x0000ffff),
    UNIMP(S_RX, "RXDCTL1", RXDCTL1, 0x00010000, 0x013f3f3f),
    UNIMP(S_RX, "RSRPD", RSRPD, 0, 0x00000fff),
    UNIMP(S_RX, "RAID", RAID, 0, 0x0000ffff),
    UNIMP(S_RX, "RDFH", RDFH, 0, 0x00001fff),
    UNIMP(S_RX, "RDFT", RDFT, 0, 0x00001fff),
    UNIMP(S_RX, "RDFHS", RDFHS, 0, 0x00001fff),
    UNIMP(S_RX, "RDFTS", RDFTS, 0, 0x00001fff),
    UNIMP(S_RX, "RDFPC", RDFPC, 0, 0x00001fff),
    R(S_RX, "RXCSUM", RXCSUM, REG_RW, RXCSUM_IPOFL | RXCSUM_TUOFL, 0x000033ff),
    R(S_RX, "RFCTL", RFCTL, REG_RW, 0, 0x0003ffff),
    RA(S_RX, "MTA", MTA, MTA_WORDS, 0, 0xffffffff),
    /* RAL/RAH interleave; each is an array with a stride of 8 bytes. */
    { .name = "RAL", .section = S_RX, .offset = RAL(0), .count = RA_ENTRIES,
      .stride = 8, .access = REG_RW, .wmask = 0xffffffff },
    { .name = "RAH", .section = S_RX, .offset = RAH(0), .count = RA_ENTRIES,
      .stride = 8, .access = REG_RW, .wmask = 0x8003ffff },
    RA(S_RX, "VFTA", VFTA, VFTA_WORDS, 0, 0xffffffff),
    R(S_RX, "MRQC", MRQC, REG_RW, 0, 0x003f0003),
    RA(S_RX, "RETA", RETA, RETA_WORDS, 0, 0xffffffff),
    RA(S_RX, "RSSRK", RSSRK, RSSRK_WORDS, 0, 0xffffffff),

    /* §10.2.6 Transmit */
    RH(S_TX, "TCTL", TCTL, REG_RW, 0, 0xffffffff, NULL, e1000e_pp_tctl_write),
    R(S_TX, "TCTL_EXT", TCTL_EXT, REG_RW, 0, 0xffffffff),
    R(S_TX, "TIPG", TIPG, REG_RW, 0x00602008, 0x3fffffff),
    /* Adaptive IFS acts in half duplex only; the link is 1000/Full. */
    R(S_TX, "AIT", AIT, REG_RW, 0, 0x0000ffff),
    R(S_TX, "TDBAL", TDBAL, REG_RW, 0, 0xfffffff0),
    R(S_TX, "TDBAH", TDBAH, REG_RW, 0, 0xffffffff),
    R(S_TX, "TDLEN", TDLEN, REG_RW, 0, 0x000fff80),
    R(S_TX, "TDH", TDH, REG_RW, 0, 0x0000ffff),
    RH(S_TX, "TDT", TDT, REG_RW, 0, 0x0000ffff, NULL, e1000e_pp_tdt_write),
    { .name = "TIDV", .section = S_TX, .offset = TIDV, .count = 1,
      .access = REG_RW, .wmask = 0x8000ffff, .action = DELAY_FPD,
      .post_write = e1000e_pp_tidv_write },
    R(S_TX, "TXDCTL", TXDCTL, REG_RW, 0, 0x017f3f3f),
    R(S_TX, "TADV", TADV, REG_RW, 0, 0x0000ffff),
    /* Arbitration between the Tx queues; queue 0 is the only one. */
    R(S_TX, "TARC0", TARC0, REG_RW, 0x00000403, 0xffffffff),
    UNIMP(S_TX, "TDBAL1", TDBAL1, 0, 0xfffffff0),
    UNIMP(S_TX, "TDBAH1", TDBAH1, 0, 0xffffffff),
    UNIMP(S_TX, "TDLEN1", TDLEN1, 0, 0x000fff80),
    UNIMP(S_TX, "TDH1", TDH1, 0, 0x0000ffff),
    UNIMP(S_TX, "TDT1", TDT1, 0, 0x0000ffff),
    UNIMP(S_TX, "TXDCTL1", TXDCTL1, 0x00010000, 0x017f3f3f),
    R(S_TX, "TARC1", TARC1, REG_RW, 0x00000403, 0xffffffff),
    UNIMP(S_TX, "TDFH", TDFH, 0, 0x00001fff),
    UNIMP(S_TX, "TDFT", TDFT, 0, 0x00001fff),
    UNIMP(S_TX, "TDFHS", TDFHS, 0, 0x00001fff),
    UNIMP(S_TX, "TDFTS", TDFTS, 0, 0x00001fff),
    UNIMP(S_TX, "TDFPC", TDFPC, 0, 0x00001fff),

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
    R(S_WAKE, "WUC", WUC, REG_RW, 0, 0x0000001f),
    R(S_WAKE, "WUFC", WUFC, REG_RW, 0, 0x000f80ff),
    R(S_WAKE, "WUS", WUS, REG_W1C, 0, 0x000f80ff),
    R(S_WAKE, "MANC", MANC, REG_RW, 0, 0xffffffff),
    UNIMP(S_WAKE, "MANC2H", MANC2H, 0, 0xffffffff),
    UNIMP(S_WAKE, "IPAV", IPAV, 0, 0xffffffff),
    R(S_WAKE, "GCR", GCR, REG_RW, 0, 0xffffffff),
    UNIMP(S_WAKE, "GSCL_1", GSCL_1, 0, 0xffffffff),
    UNIMP(S_WAKE, "GSCL_2", GSCL_2, 0, 0xffffffff),
    UNIMP(S_WAKE, "GSCL_3", GSCL_3, 0, 0xffffffff),
    UNIMP(S_WAKE, "GSCL_4", GSCL_4, 0, 0xffffffff),
    R(S_WAKE, "FACTPS", FACTPS, REG_RW, 0, 0xffffffff),
    R(S_WAKE, "FUNCTAG", FUNCTAG, REG_RW, 0, 0xffffffff),
    RH(S_WAKE, "SWSM", SWSM, REG_RW, 0, SWSM_SMBI | SWSM_SWESMBI,
       e1000e_pp_swsm_read, NULL),
    R(S_WAKE, "FWSM", FWSM, REG_RO, 0, 0),
    R(S_WAKE, "GCR2", GCR2, REG_RW, 0, 0xffffffff),
    UNIMP(S_WAKE, "POEMB", POEMB, 0, 0xffffffff),

    /* §10.2.9 Time sync */
    RH(S_TS, "SYSTIML", SYSTIML, REG_RW, 0, 0xffffffff,
       e1000e_pp_systiml_read, e1000e_pp_systim_write),
    RH(S_TS, "SYSTIMH", SYSTIMH, REG_RW, 0, 0xffffffff,
       e1000e_pp_systimh_read, e1000e_pp_systim_write),
    RH(S_TS, "TIMINCA", TIMINCA, REG_RW, 0, 0xffffffff,
       NULL, e1000e_pp_timinca_write),
    RH(S_TS, "TIMADJL", TIMADJL, REG_RW, 0, 0xffffffff,
       NULL, e1000e_pp_timadj_write),
    RH(S_TS, "TIMADJH", TIMADJH, REG_RW, 0, 0xffffffff,
       NULL, e1000e_pp_timadj_write),
    /* VALID (bit 0) is the device's; reading the stamp's high half clears it */
    R(S_TS, "TSYNCTXCTL", TSYNCTXCTL, REG_RW, 0, TSYNCTXCTL_EN),
    R(S_TS, "TXSTMPL", TXSTMPL, REG_RO, 0, 0),
    RH(S_TS, "TXSTMPH", TXSTMPH, REG_RO, 0, 0,
       e1000e_pp_stamp_high_read, NULL),
    R(S_TS, "TSYNCRXCTL", TSYNCRXCTL, REG_RW, 0,
      TSYNCRXCTL_EN | TSYNCRXCTL_TYPE_MASK),
    R(S_TS, "RXSTMPL", RXSTMPL, REG_RO, 0, 0),
    RH(S_TS, "RXSTMPH", RXSTMPH, REG_RO, 0, 0,
       e1000e_pp_stamp_high_read, NULL),
    R(S_TS, "RXSATRL", RXSATRL, REG_RO, 0, 0),
    R(S_TS, "RXSATRH", RXSATRH, REG_RO, 0, 0),
    R(S_TS, "RXMTRL", RXMTRL, REG_RW, 0x000088f7, 0xffffffff),
    R(S_TS, "RXUDP", RXUDP, REG_RW, 0x00000319, 0x0000ffff),
};
const size_t e1000e_pp_reg_table_len = ARRAY_LEN(e1000e_pp_reg_table);

/* Row index + 1 for every dword of BAR0; 0 marks an unknown offset. */
static uint16_t reg_index[REG_WORDS];
static bool reg_index_built;

static void reg_index_build(void)
{
    size_t i;
    unsigned n;

    for (i = 0; i < e1000e_pp_reg_table_len; i++) {
        const RegInfo *ri = &e1000e_pp_reg_table[i];
        for (n = 0; n < ri->count; n++) {
            reg_index[e1000e_pp_reg_element(ri, n) >> 2] = (uint16_t)(i + 1);
        }
    }
    reg_index_built = true;
}

/*
 * The dispatch's own: other files read the table's rows (reset.c its
 * reset values), none looks an offset up.
 */
const RegInfo *e1000e_pp_reg_lookup(uint32_t offset);
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

/* An access the model cannot honour: listed, and logged once. */
static void reg_unimplemented(E1000EPPCore *c, const RegInfo *ri,
                              uint32_t off, bool is_write, uint32_t value)
{
    /* The entry points take any offset; only BAR0's dwords are listed. */
    if (off < REG_SPACE_BYTES) {
        c->obs.unimp_seen[off >> 7] |= 1u << ((off >> 2) & 31);
    }
    if (ri) {
        e1000e_pp_log(c, E1000E_PP_LOG_UNIMP, off,
                      "%s of %s (0x%05x, §%s): stored, not modelled",
                      is_write ? "write" : "read", ri->name, off,
                      ri->section);
    } else {
        e1000e_pp_log(c, E1000E_PP_LOG_UNIMP, off,
                      "%s 0x%08x at unknown register 0x%05x",
                      is_write ? "write" : "read", value, off);
    }
}

size_t e1000e_pp_unimplemented(E1000EPPCore *c, char *buf, size_t size)
{
    size_t len = 0;
    uint32_t off;

    if (size) {
        buf[0] = '\0';
    }
    for (off = 0; off < REG_SPACE_BYTES; off += 4) {
        const RegInfo *ri;

        if (!(c->obs.unimp_seen[off >> 7] & (1u << ((off >> 2) & 31)))) {
            continue;
        }
        ri = e1000e_pp_reg_lookup(off);
        len = e1000e_pp_text_add(buf, size, len, "%s%s@0x%05x",
                                 len ? "," : "", ri ? ri->name : "?", off);
    }
    return len;
}

static uint32_t reg_read(E1000EPPCore *c, const RegInfo *ri, uint32_t off)
{
    uint32_t *r = &c->arch.regs[off >> 2];
    uint32_t val = *r;

    if (ri->read) {
        return ri->read(c, off);
    }
    switch (ri->access) {
    case REG_SET:
        return ri->target == off ? val : 0;     /* IMS reads back */
    case REG_WO:
    case REG_CLR:
        return 0;
    case REG_RC:
        *r = 0;
        break;
    case REG_RC_HIGH:
        /* Reading the high half clears the 64-bit pair (§10.2.7). */
        r[0] = 0;
        r[-1] = 0;
        break;
    default:
        break;
    }
    return val;
}

/* The alias's row and offset resolve to the register it names. */
static const RegInfo *reg_resolve(const RegInfo *ri, uint32_t *off)
{
    if (ri->access == REG_ALIAS) {
        *off = ri->target;
        return e1000e_pp_reg_lookup(ri->target);
    }
    return ri;
}

uint32_t e1000e_pp_read(E1000EPPCore *c, uint32_t offset)
{
    uint32_t off = offset & ~3u;
    const RegInfo *ri = e1000e_pp_reg_lookup(off);
    const char *name = ri ? ri->name : "?";
    uint32_t val = UINT32_MAX;

    if (!e1000e_pp_enter(c, off, "mmio-read")) {
        return val;
    }
    if (!ri || ri->access == REG_UNIMP) {
        reg_unimplemented(c, ri, off, false, 0);
    }
    if (ri) {
        ri = reg_resolve(ri, &off);
        val = reg_read(c, ri, off);
    } else {
        val = 0;
    }
    if (c->plat->trace_reg) {
        c->plat->trace_reg(c->opaque, 0, name, offset & ~3u, val);
    }
    e1000e_pp_leave(c);
    return val;
}

static void reg_write(E1000EPPCore *c, const RegInfo *ri, uint32_t off,
                      uint32_t value)
{
    uint32_t *r = &c->arch.regs[(ri->target && ri->access != REG_ALIAS ?
                            ri->target : off) >> 2];
    uint32_t old = *r;

    switch (ri->access) {
    case REG_RO:
    case REG_RC:
    case REG_RC_HIGH:
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, off,
                      "write 0x%08x to read-only register %s",
                      value, ri->name);
        return;
    case REG_W1C:
        *r &= ~(value & ri->wmask);
        break;
    case REG_SET:
        *r |= value & ri->wmask;
        break;
    case REG_CLR:
        *r &= ~(value & ri->wmask);
        break;
    case REG_WO:
        break;
    default:
        *r = (old & ~ri->wmask) | (value & ri->wmask & ~ri->action);
        break;
    }
    if (ri->post_write) {
        ri->post_write(c, off, value, old);
    }
}

void e1000e_pp_write(E1000EPPCore *c, uint32_t offset, uint32_t value)
{
    uint32_t off = offset & ~3u;
    const RegInfo *ri = e1000e_pp_reg_lookup(off);

    if (!e1000e_pp_enter(c, off, "mmio-write")) {
        return;
    }
    if (c->plat->trace_reg) {
        c->plat->trace_reg(c->opaque, 1, ri ? ri->name : "?", off, value);
    }
    if (c->arch.resetting) {
        /* The driver should wait for CTRL.RST to finish: listed. */
        c->obs.reset_accesses++;
        e1000e_pp_event(c, "write-during-reset", off, value);
    }
    if (!ri || ri->access == REG_UNIMP) {
        reg_unimplemented(c, ri, off, true, value);
    }
    if (ri) {
        ri = reg_resolve(ri, &off);
        reg_write(c, ri, off, value);
    }
    e1000e_pp_leave(c);
}

/* §9.3.2 I/O BAR: IOADDR selects a CSR, IODATA reads or writes it. */
#define IOADDR_PORT     0x0
#define IODATA_PORT     0x4

/* Log slot of I/O BAR messages: a dword of BAR0 that holds no register. */
#define IO_LOG_SLOT     (REG_SPACE_BYTES - 4)

uint32_t e1000e_pp_io_read(E1000EPPCore *c, uint32_t port)
{
    if (port == IODATA_PORT && c->arch.ioaddr < REG_SPACE_BYTES) {
        return e1000e_pp_read(c, c->arch.ioaddr);
    }
    if (!e1000e_pp_power_d0(c, "io-read", port)) {
        return UINT32_MAX;
    }
    if (port == IOADDR_PORT) {
        return c->arch.ioaddr;
    }
    if (port == IODATA_PORT) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, IO_LOG_SLOT,
                      "IODATA read, IOADDR 0x%x is not a CSR", c->arch.ioaddr);
        return 0;
    }
    return e1000e_pp_read(c, c->arch.ioaddr);
}

void e1000e_pp_io_write(E1000EPPCore *c, uint32_t port, uint32_t value)
{
    if (port == IODATA_PORT && c->arch.ioaddr < REG_SPACE_BYTES) {
        e1000e_pp_write(c, c->arch.ioaddr, value);
        return;
    }
    if (!e1000e_pp_power_d0(c, "io-write", port)) {
        return;
    }
    if (port == IOADDR_PORT) {
        c->arch.ioaddr = value;
    } else if (port == IODATA_PORT) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, IO_LOG_SLOT,
                      "IODATA write, IOADDR 0x%x is not a CSR", c->arch.ioaddr);
    }
}

size_t e1000e_pp_reg_spans(E1000EPPRegSpan *out, size_t max)
{
    size_t i, n = 0;

    for (i = 0; i < e1000e_pp_reg_table_len; i++) {
        const RegInfo *ri = &e1000e_pp_reg_table[i];

        /* An alias has no storage of its own. */
        if (ri->access == REG_ALIAS) {
            continue;
        }
        if (n < max) {
            out[n].name = ri->name;
            out[n].offset = ri->offset;
            out[n].count = ri->count;
            out[n].stride = ri->stride ? ri->stride : 4;
        }
        n++;
    }
    return n;
}
