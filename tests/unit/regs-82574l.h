/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 82574L's registers as the tests, the fuzzers and the benchmark
 * use them, written out once from the datasheet (82574L GbE Controller
 * Family datasheet, chapter 10) and not taken from the core's regs.h:
 * a wrong offset or bit in the code under test must fail a test, not
 * move the test along with it.
 *
 * R_<name> is a register's offset in BAR0; <register>_<field> one of
 * its bits.
 */
#ifndef REGS_82574L_H
#define REGS_82574L_H

/* General (§10.2.2) */
#define R_CTRL          0x00000
#define R_CTRL_DUP      0x00004     /* CTRL again */
#define R_STATUS        0x00008
#define R_EECD          0x00010
#define R_EERD          0x00014
#define CTRL_GIO_MD     (1u << 2)
#define CTRL_SLU        (1u << 6)
#define CTRL_RST        (1u << 26)
#define STATUS_LU       (1u << 1)
#define STATUS_GIO      (1u << 19)
#define EECD_AUTO_RD    (1u << 9)
#define EERD_DONE_BIT   (1u << 1)

/* Interrupts (§10.2.4) */
#define R_ICR           0x000c0
#define R_ICS           0x000c8
#define R_IMS           0x000d0
#define R_IMC           0x000d8
#define ICR_LSC         (1u << 2)

/* Packet buffer (§10.2.2) */
#define R_PBA           0x01000
#define R_PBS           0x01008

/* Receive (§10.2.5) */
#define R_RCTL          0x00100
#define R_ERT           0x02008
#define R_PSRCTL        0x02170
#define R_RDBAL         0x02800
#define R_RDBAH         0x02804
#define R_RDLEN         0x02808
#define R_RDH           0x02810
#define R_RDT           0x02818
#define R_RDTR          0x02820
#define R_RXDCTL        0x02828
#define R_RADV          0x0282c
#define R_RXDCTL1       0x02928
#define R_RXCSUM        0x05000
#define R_RFCTL         0x05008
#define R_RAL0          0x05400
#define R_RAH0          0x05404
#define RCTL_EN         (1u << 1)
#define RCTL_SBP        (1u << 2)
#define RCTL_LPE        (1u << 5)
#define RCTL_BAM        (1u << 15)
#define RCTL_SZ_16384   (1u << 16 | 1u << 25)   /* BSIZE=01 with BSEX */
#define RCTL_SECRC      (1u << 26)
#define RXCSUM_PCSD     (1u << 13)
#define RFCTL_EXTEN     (1u << 15)
#define RAH_AV          (1u << 31)

/* Transmit (§10.2.6) */
#define R_TDBAL         0x03800
#define R_TDBAH         0x03804
#define R_TDLEN         0x03808
#define R_TDH           0x03810
#define R_TDT           0x03818
#define R_TXDCTL1       0x03928

/* Statistics (§10.2.7) */
#define R_STATS         0x04000     /* the first counter */
#define R_STATS_END     0x04100     /* past the last */
#define R_CRCERRS       0x04000
#define R_SYMERRS       0x04008
#define R_RXERRC        0x0400c
#define R_MPC           0x04010
#define R_RLEC          0x04040
#define R_GPRC          0x04074
#define R_RNBC          0x040a0
#define R_RUC           0x040a4
#define R_ROC           0x040ac
#define R_TPR           0x040d0

/* Wake-up (§10.2.8); WUFC and WUS share the filter bits */
#define R_WUC           0x05800
#define R_WUFC          0x05808
#define R_WUS           0x05810
#define WUC_APME        (1u << 0)
#define WUC_PME_EN      (1u << 1)
#define WU_LNKC         (1u << 0)
#define WU_MAG          (1u << 1)
#define WU_EX           (1u << 2)

/* Time sync (§10.2.9) */
#define R_SYSTIML       0x0b600
#define R_SYSTIMH       0x0b604
#define R_TIMINCA       0x0b608
#define R_TSYNCTXCTL    0x0b614
#define R_TXSTMPL       0x0b618
#define R_TXSTMPH       0x0b61c
#define R_TSYNCRXCTL    0x0b620
#define R_RXSTMPL       0x0b624
#define R_RXSTMPH       0x0b628
#define R_RXSATRL       0x0b62c
#define R_RXSATRH       0x0b630
#define R_RXMTRL        0x0b634
#define R_RXUDP         0x0b638

#endif
