/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 82574L register map as the qtests see it.
 *
 * Every offset and bit here is written from the Intel 82574 GbE Controller
 * datasheet (chapter 10, "Programming Interface"; chapter 7 for the
 * descriptor formats).  This header deliberately includes neither the
 * model's headers nor QEMU's e1000_regs.h: a wrong constant must not be
 * wrong on both sides of the test.  Each value was checked against the
 * facts in the Linux e1000e driver's regs.h, hw.h and defines.h.
 *
 * This is the only place the qtests define register offsets and bits;
 * test-local constants are descriptor layouts and datasheet literals.
 */

#ifndef E1000E_PP_REGS_H
#define E1000E_PP_REGS_H

/* PCI identity (82574L, §9.3) */
#define EPP_VENDOR_INTEL        0x8086
#define EPP_DEVICE_82574L       0x10d3

/* General registers (§10.2.2) */
#define CTRL            0x00000     /* Device Control */
#define STATUS          0x00008     /* Device Status, RO */
#define EECD            0x00010     /* EEPROM/Flash Control */
#define EERD            0x00014     /* EEPROM Read */
#define CTRL_EXT        0x00018     /* Extended Device Control */
#define MDIC            0x00020     /* MDI Control */
#define FCAL            0x00028     /* Flow Control Address Low */
#define FCAH            0x0002c     /* Flow Control Address High */
#define FCT             0x00030     /* Flow Control Type */
#define VET             0x00038     /* VLAN EtherType, reset 0x8100 */
#define FCTTV           0x00170     /* Flow Control Transmit Timer Value */
#define EXTCNF_CTRL     0x00f00     /* Extended Configuration Control */
#define PBA             0x01000     /* Packet Buffer Allocation */

/* Interrupt registers (§10.2.4) */
#define ICR             0x000c0     /* Interrupt Cause Read, read-clear */
#define ITR             0x000c4     /* Interrupt Throttling Rate */
#define ICS             0x000c8     /* Interrupt Cause Set, WO */
#define IMS             0x000d0     /* Interrupt Mask Set/Read */
#define IMC             0x000d8     /* Interrupt Mask Clear, WO */
#define IAM             0x000e0     /* Interrupt Acknowledge Auto Mask */
#define EIAC            0x000dc     /* Extended Interrupt Auto Clear */
#define IVAR            0x000e4     /* Interrupt Vector Allocation */
#define EITR(n)         (0x000e8 + 4 * (n))  /* MSI-X vector n throttle */

/* Receive registers (§10.2.5) */
#define RCTL            0x00100     /* Receive Control */
#define FCRTL           0x02160     /* Flow Control Rx Threshold Low */
#define FCRTH           0x02168     /* Flow Control Rx Threshold High */
#define PSRCTL          0x02170     /* Packet Split Receive Control */
#define RDBAL0          0x02800     /* Rx Descriptor Base Low, queue 0 */
#define RDBAH0          0x02804     /* Rx Descriptor Base High */
#define RDLEN0          0x02808     /* Rx Descriptor Ring Length (bytes) */
#define RDH0            0x02810     /* Rx Descriptor Head */
#define RDT0            0x02818     /* Rx Descriptor Tail */
#define RDTR            0x02820     /* Rx Interrupt Delay Timer */
#define RXDCTL0         0x02828     /* Rx Descriptor Control */
#define RADV            0x0282c     /* Rx Interrupt Absolute Delay */
#define RXCSUM          0x05000     /* Rx Checksum Control */
#define RFCTL           0x05008     /* Receive Filter Control */
#define MTA             0x05200     /* Multicast Table Array, 128 dwords */
#define RAL0            0x05400     /* Receive Address Low, entry 0 */
#define RAH0            0x05404     /* Receive Address High, entry 0 */

/* Transmit registers (§10.2.6) */
#define TCTL            0x00400     /* Transmit Control */
#define TIPG            0x00410     /* Transmit Inter Packet Gap */
#define TDBAL0          0x03800     /* Tx Descriptor Base Low, queue 0 */
#define TDBAH0          0x03804     /* Tx Descriptor Base High */
#define TDLEN0          0x03808     /* Tx Descriptor Ring Length (bytes) */
#define TDH0            0x03810     /* Tx Descriptor Head */
#define TDT0            0x03818     /* Tx Descriptor Tail */
#define TIDV            0x03820     /* Tx Interrupt Delay Value */
#define TXDCTL0         0x03828     /* Tx Descriptor Control */
#define TADV            0x0382c     /* Tx Absolute Interrupt Delay */

/* Statistics (§10.2.7), all read-clear */
#define STATS_FIRST     0x04000
#define STATS_LAST      0x04124
#define CRCERRS         0x04000     /* CRC Error Count */
#define SYMERRS         0x04008     /* Symbol Error Count */
#define RXERRC          0x0400c     /* Receive Error Count */
#define MPC             0x04010     /* Missed Packets Count */
#define RLEC            0x04040     /* Receive Length Error Count */
#define GPRC            0x04074     /* Good Packets Received Count */
#define GPTC            0x04080     /* Good Packets Transmitted Count */
#define GORCL           0x04088     /* Good Octets Received Count Low */
#define GORCH           0x0408c     /* Good Octets Received Count High */
#define GOTCL           0x04090     /* Good Octets Transmitted Count Low */
#define GOTCH           0x04094     /* Good Octets Transmitted Count High */
#define RNBC            0x040a0     /* Receive No Buffers Count */
#define RUC             0x040a4     /* Receive Undersize Count */
#define ROC             0x040ac     /* Receive Oversize Count */
#define TPR             0x040d0     /* Total Packets Received */
#define TPT             0x040d4     /* Total Packets Transmitted */
#define TSCTC           0x040f8     /* TCP Segmentation Context Tx Count */

/* CTRL bits (§10.2.2.1) */
#define CTRL_FD             0x00000001u  /* Full duplex */
#define CTRL_GIO_MASTER_DIS 0x00000004u  /* GIO master disable */
#define CTRL_ASDE           0x00000020u  /* Auto-speed detection enable */
#define CTRL_SLU            0x00000040u  /* Set link up */
#define CTRL_FRCSPD         0x00000800u  /* Force speed */
#define CTRL_FRCDPX         0x00001000u  /* Force duplex */
#define CTRL_RST            0x04000000u  /* Device reset, self-clearing */
#define CTRL_RFCE           0x08000000u  /* Rx flow control enable */
#define CTRL_TFCE           0x10000000u  /* Tx flow control enable */
#define CTRL_VME            0x40000000u  /* VLAN mode enable */
#define CTRL_PHY_RST        0x80000000u  /* PHY reset */

/* STATUS bits (§10.2.2.2) */
#define STATUS_FD           0x00000001u  /* Full duplex */
#define STATUS_LU           0x00000002u  /* Link up */
#define STATUS_TXOFF        0x00000010u  /* Transmission paused */
#define STATUS_SPEED_MASK   0x000000c0u  /* Link speed */
#define STATUS_SPEED_1000   0x00000080u
#define STATUS_PHYRA        0x00000400u  /* PHY reset asserted */
#define STATUS_GIO_MASTER_EN 0x00080000u /* GIO master enable status */

/* EECD bits (§10.2.2.3) */
#define EECD_PRES           0x00000100u  /* NVM present */
#define EECD_AUTO_RD        0x00000200u  /* NVM auto-read done */

/* EXTCNF_CTRL bits (§10.2.2.9) */
#define EXTCNF_CTRL_MDIO_SW_OWNERSHIP 0x00000020u /* software owns MDIO */

/* EERD fields (§10.2.2.4) */
#define EERD_START          0x00000001u
#define EERD_DONE           0x00000002u
#define EERD_ADDR_SHIFT     2
#define EERD_DATA_SHIFT     16

/* CTRL_EXT bits (§10.2.2.5) */
#define CTRL_EXT_EIAME      0x01000000u  /* Extended interrupt auto mask */
#define CTRL_EXT_IAME       0x08000000u  /* Interrupt ack auto mask */
#define CTRL_EXT_DRV_LOAD   0x10000000u  /* Driver loaded */
#define CTRL_EXT_PBA_CLR    0x80000000u  /* Clear MSI-X pending bits */

/* MDIC fields (§10.2.2.7) */
#define MDIC_DATA_MASK      0x0000ffffu
#define MDIC_REGADD_SHIFT   16          /* bits 20:16 */
#define MDIC_REGADD_MASK    0x001f0000u
#define MDIC_PHYADD_SHIFT   21          /* bits 25:21 */
#define MDIC_PHYADD_MASK    0x03e00000u
#define MDIC_OP_WRITE       0x04000000u
#define MDIC_OP_READ        0x08000000u
#define MDIC_READY          0x10000000u
#define MDIC_INT_EN         0x20000000u
#define MDIC_ERROR          0x40000000u

/* PBA fields (§10.2.2.12): KB units, 40 KB on chip in total */
#define PBA_RXA_MASK        0x0000ffffu
#define PBA_TXA_SHIFT       16
#define PBA_TOTAL_KB        40

/* Interrupt causes: ICR/ICS/IMS/IMC share the layout (§10.2.4.1) */
#define ICR_TXDW            0x00000001u  /* Tx descriptor written back */
#define ICR_TXQE            0x00000002u  /* Tx queue empty */
#define ICR_LSC             0x00000004u  /* Link status change */
#define ICR_RXSEQ           0x00000008u  /* Rx sequence error */
#define ICR_RXDMT0          0x00000010u  /* Rx descriptor minimum threshold */
#define ICR_RXO             0x00000040u  /* Receiver overrun */
#define ICR_RXT0            0x00000080u  /* Rx timer interrupt */
#define ICR_MDAC            0x00000200u  /* MDI access complete */
#define ICR_RXQ0            0x00100000u  /* Rx queue 0 (MSI-X) */
#define ICR_RXQ1            0x00200000u  /* Rx queue 1 (MSI-X) */
#define ICR_TXQ0            0x00400000u  /* Tx queue 0 (MSI-X) */
#define ICR_TXQ1            0x00800000u  /* Tx queue 1 (MSI-X) */
#define ICR_OTHER           0x01000000u  /* Other cause (MSI-X) */
#define ICR_INT_ASSERTED    0x80000000u  /* Interrupt asserted */

/* IVAR fields (§10.2.4.9): 3-bit vector + valid bit per cause */
#define IVAR_RXQ0_SHIFT     0
#define IVAR_RXQ1_SHIFT     4
#define IVAR_TXQ0_SHIFT     8
#define IVAR_TXQ1_SHIFT     12
#define IVAR_OTHER_SHIFT    16
#define IVAR_VALID          0x8u
#define IVAR_TX_EVERY_WB    0x80000000u

/* RCTL bits (§10.2.5.1) */
#define RCTL_EN             0x00000002u  /* Receiver enable */
#define RCTL_SBP            0x00000004u  /* Store bad packets */
#define RCTL_UPE            0x00000008u  /* Unicast promiscuous */
#define RCTL_MPE            0x00000010u  /* Multicast promiscuous */
#define RCTL_LPE            0x00000020u  /* Long packet enable */
#define RCTL_LBM_MAC        0x00000040u  /* Loopback mode 01: MAC loopback */
#define RCTL_DTYP_PS        0x00000400u  /* Packet-split descriptors */
#define RCTL_RDMTS_8TH      0x00000200u  /* RXDMT0 at 1/8 of the ring */
#define RCTL_BAM            0x00008000u  /* Broadcast accept mode */
#define RCTL_BSIZE_2048     0x00000000u  /* BSIZE=00, BSEX=0 */
#define RCTL_BSIZE_1024     0x00010000u  /* BSIZE=01, BSEX=0 */
#define RCTL_BSIZE_512      0x00020000u  /* BSIZE=10, BSEX=0 */
#define RCTL_BSIZE_256      0x00030000u  /* BSIZE=11, BSEX=0 */
#define RCTL_BSIZE_4096     0x02030000u  /* BSIZE=11, BSEX=1 */
#define RCTL_BSEX           0x02000000u  /* Buffer size extension (x16) */
#define RCTL_SECRC          0x04000000u  /* Strip Ethernet CRC */

/* RFCTL bits (§10.2.5.11) */
#define RFCTL_EXTEN         0x00008000u  /* Extended Rx descriptors */

/* RXCSUM bits (§10.2.5.10) */
#define RXCSUM_PCSD         0x00002000u  /* Packet checksum disable */

/* RAH bits (§10.2.5.16) */
#define RAH_AV              0x80000000u  /* Address valid */

/* RDTR/TIDV bit (§10.2.5.7, §10.2.6.7) */
#define RDTR_FPD            0x80000000u  /* RDTR: flush partial block */
#define TIDV_FPD            0x80000000u  /* TIDV: flush partial block */

/* TCTL fields (§10.2.6.1) */
#define TCTL_EN             0x00000002u  /* Transmit enable */
#define TCTL_PSP            0x00000008u  /* Pad short packets */
#define TCTL_CT_SHIFT       4            /* Collision threshold */
#define TCTL_COLD_SHIFT     12           /* Collision distance */

/* Legacy Tx descriptor (§7.2.10.1): CMD byte in bits 31:24 of dword 2 */
#define TXD_CMD_EOP         0x01000000u  /* End of packet */
#define TXD_CMD_IFCS        0x02000000u  /* Insert FCS */
#define TXD_CMD_IC          0x04000000u  /* Insert checksum (legacy) */
#define TXD_CMD_RS          0x08000000u  /* Report status */
#define TXD_CMD_DEXT        0x20000000u  /* Descriptor extension */
#define TXD_CMD_VLE         0x40000000u  /* VLAN enable */
#define TXD_CMD_IDE         0x80000000u  /* Interrupt delay enable */
#define TXD_CMD_TSE         0x04000000u  /* Data: TCP segmentation */
#define TXD_STA_DD          0x00000001u  /* Descriptor done (dword 3) */

/* Extended Tx descriptors (§7.2.10.2/3): DTYP in bits 23:20 */
#define TXD_DTYP_CTX        0x00000000u  /* Context descriptor */
#define TXD_DTYP_DATA       0x00100000u  /* Data descriptor */
#define TXD_CTX_TUCMD_TCP   0x01000000u  /* Context: packet is TCP */
#define TXD_CTX_TUCMD_IP    0x02000000u  /* Context: packet is IPv4 */
#define TXD_CTX_TUCMD_TSE   0x04000000u  /* Context: TCP segmentation */
/* POPTS is the byte at bits 15:8 of the data descriptor's dword 3 */
#define TXD_POPTS_IXSM      0x00000100u  /* Data: insert IP checksum */
#define TXD_POPTS_TXSM      0x00000200u  /* Data: insert TCP/UDP checksum */

/* Rx descriptor status/errors (§7.1.4, §7.1.5) */
#define RXD_STA_DD          0x01u        /* Descriptor done */
#define RXD_STA_EOP         0x02u        /* End of packet */
#define RXD_ERR_CE          0x01u        /* CRC or alignment error */
#define RXD_ERR_SE          0x02u        /* Symbol error */
#define RXD_ERR_SEQ         0x04u        /* Sequence error */
#define RXD_ERR_CXE         0x10u        /* Carrier extension error */
#define RXD_ERR_RXE         0x80u        /* Rx data error */
/* Linux E1000_RXD_ERR_FRAME_ERR_MASK: what makes the driver drop a frame */
#define RXD_ERR_FRAME       (RXD_ERR_CE | RXD_ERR_SE | RXD_ERR_SEQ | \
                             RXD_ERR_CXE | RXD_ERR_RXE)

/* Descriptor size: all Tx and non-split Rx formats are 16 bytes */
#define EPP_DESC_LEN        16

/* PHY registers over MDIC (IEEE 802.3 clause 22; BM PHY page select) */
#define PHY_BMCR            0            /* Basic mode control */
#define PHY_BMSR            1            /* Basic mode status */
#define PHY_ID1             2
#define PHY_ID2             3
#define PHY_PAGE_SELECT     22           /* BM PHY page select */
#define BMCR_ANRESTART      0x0200       /* Restart auto-negotiation */
#define BMCR_PDOWN          0x0800       /* Power down */
#define BMCR_ANENABLE       0x1000       /* Auto-negotiation enable */
#define BMSR_LSTATUS        0x0004       /* Link status */

/* Wake-up (82574L §10.2.8; Linux e1000e defines.h) */
#define WUC                 0x05800
#define   WUC_APME            0x00000001u  /* APM wake-up enable */
#define   WUC_PME_EN          0x00000002u  /* PME enable */
#define WUFC                0x05808     /* WUS has the same bits */
#define WUS                 0x05810
#define   WU_LNKC             0x00000001u  /* link status change */
#define   WU_MAG              0x00000002u  /* magic packet */

#endif /* E1000E_PP_REGS_H */
