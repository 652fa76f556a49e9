/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 82574L register map: byte offsets into BAR0 and the bits the model
 * decodes, named as in the datasheet (chapter 10, "Device Registers").
 *
 * Only the device core includes this header; the QEMU adapter and the
 * tests spell their own constants so a wrong value here is not wrong on
 * both sides.
 */
#ifndef E1000E_PP_REGS_H
#define E1000E_PP_REGS_H

/* §10.2.2 General registers */
#define CTRL            0x00000
#define   CTRL_FD           (1u << 0)
#define   CTRL_GIO_MASTER_DISABLE (1u << 2)
#define   CTRL_ASDE         (1u << 5)
#define   CTRL_SLU          (1u << 6)
#define   CTRL_SPEED_1000   (2u << 8)
#define   CTRL_FRCSPD       (1u << 11)
#define   CTRL_FRCDPX       (1u << 12)
#define   CTRL_RST          (1u << 26)
#define   CTRL_RFCE         (1u << 27)
#define   CTRL_TFCE         (1u << 28)
#define   CTRL_VME          (1u << 30)
#define   CTRL_PHY_RST      (1u << 31)
#define CTRL_DUP        0x00004     /* CTRL again (§10.2.2.1) */
#define STATUS          0x00008
#define   STATUS_FD         (1u << 0)
#define   STATUS_LU         (1u << 1)
#define   STATUS_TXOFF      (1u << 4)
#define   STATUS_SPEED_1000 (2u << 6)
#define   STATUS_SPEED_MASK (3u << 6)
#define   STATUS_ASDV_1000  (2u << 8)
#define   STATUS_PHYRA      (1u << 10)
#define   STATUS_GIO_MASTER_ENABLE (1u << 19)
#define EECD            0x00010
#define   EECD_SK           (1u << 0)
#define   EECD_CS           (1u << 1)
#define   EECD_DI           (1u << 2)
#define   EECD_DO           (1u << 3)
#define   EECD_REQ          (1u << 6)
#define   EECD_GNT          (1u << 7)
#define   EECD_PRES         (1u << 8)
#define   EECD_AUTO_RD      (1u << 9)
#define   EECD_AUPDEN       (1u << 20)
#define EERD            0x00014
#define   EERD_START        (1u << 0)
#define   EERD_DONE         (1u << 1)
#define   EERD_ADDR_SHIFT   2
#define   EERD_ADDR_MASK    0x3fffu
#define   EERD_DATA_SHIFT   16
#define CTRL_EXT        0x00018
#define   CTRL_EXT_EE_RST   (1u << 13)
#define   CTRL_EXT_SPD_BYPS (1u << 15)
#define   CTRL_EXT_DRV_LOAD (1u << 28)
#define   CTRL_EXT_EIAME    (1u << 24)
#define   CTRL_EXT_IAME     (1u << 27)
#define   CTRL_EXT_PBA_CLR  (1u << 31)
#define FLA             0x0001c
#define MDIC            0x00020
#define   MDIC_DATA_MASK    0xffffu
#define   MDIC_REG_SHIFT    16
#define   MDIC_PHY_SHIFT    21
#define   MDIC_OP_WRITE     (1u << 26)
#define   MDIC_OP_READ      (2u << 26)
#define   MDIC_READY        (1u << 28)
#define   MDIC_INT_EN       (1u << 29)
#define   MDIC_ERROR        (1u << 30)
#define FCAL            0x00028
#define FCAH            0x0002c
#define FCT             0x00030
#define VET             0x00038
#define FCTTV           0x00170
#define TXCW            0x00178
#define RXCW            0x00180
#define LEDCTL          0x00e00
#define EXTCNF_CTRL     0x00f00
#define   EXTCNF_CTRL_MDIO_SW_OWNERSHIP (1u << 5)
#define EXTCNF_SIZE     0x00f08
#define PHY_CTRL        0x00f10
#define PBA             0x01000
#define   PBA_RXA_MASK      0xffffu
#define   PBA_TOTAL_KB      40
#define PBS             0x01008
#define EEMNGCTL        0x01010
#define   EEMNGCTL_CFG_DONE0 (1u << 18)
#define EEWR            0x0102c
#define FLASHT          0x01028
#define FLSWCTL         0x01030
#define FLSWDATA        0x01034
#define FLSWCNT         0x01038
#define FLOP            0x0103c
#define FLOL            0x01050

/* §10.2.4 Interrupt registers */
#define ICR             0x000c0
#define   ICR_TXDW          (1u << 0)
#define   ICR_TXQE          (1u << 1)
#define   ICR_LSC           (1u << 2)
#define   ICR_RXSEQ         (1u << 3)
#define   ICR_RXDMT0        (1u << 4)
#define   ICR_RXO           (1u << 6)
#define   ICR_RXT0          (1u << 7)
#define   ICR_MDAC          (1u << 9)
#define   ICR_TXD_LOW       (1u << 15)
#define   ICR_SRPD          (1u << 16)
#define   ICR_ACK           (1u << 17)
#define   ICR_MNG           (1u << 18)
#define   ICR_RXQ0          (1u << 20)
#define   ICR_RXQ1          (1u << 21)
#define   ICR_TXQ0          (1u << 22)
#define   ICR_TXQ1          (1u << 23)
#define   ICR_OTHER         (1u << 24)
#define   ICR_INT_ASSERTED  (1u << 31)
/* Causes that the MSI-X "other" vector stands for (§7.4.2) */
#define   ICR_OTHER_CAUSES  (ICR_LSC | ICR_RXO | ICR_MDAC | ICR_SRPD | \
                             ICR_ACK | ICR_MNG)
#define ITR             0x000c4
#define ICS             0x000c8
#define IMS             0x000d0
#define   IMS_VALID         0x01ffffff  /* causes IMS can enable */
#define IMC             0x000d8
#define IAM             0x000e0
#define IVAR            0x000e4
#define   IVAR_ENTRY_VALID  (1u << 3)
#define   IVAR_VECTOR_MASK  0x7u
#define   IVAR_TX_INT_EVERY_WB (1u << 31)
#define EITR(n)         (0x000e8 + (n) * 4)
#define LPIC            0x000fc     /* reserved on the 82574L */
#define EIAC            0x000dc

/* §10.2.5 Receive registers */
#define RCTL            0x00100
#define   RCTL_EN           (1u << 1)
#define   RCTL_SBP          (1u << 2)
#define   RCTL_UPE          (1u << 3)
#define   RCTL_MPE          (1u << 4)
#define   RCTL_LPE          (1u << 5)
#define   RCTL_LBM_SHIFT    6
#define   RCTL_LBM_MASK     (3u << 6)
#define   RCTL_RDMTS_SHIFT  8
#define   RCTL_RDMTS_MASK   (3u << 8)
#define   RCTL_DTYP_SHIFT   10
#define   RCTL_DTYP_MASK    (3u << 10)
#define   RCTL_DTYP_PS      (1u << 10)
#define   RCTL_MO_SHIFT     12
#define   RCTL_MO_MASK      (3u << 12)
#define   RCTL_BAM          (1u << 15)
#define   RCTL_BSIZE_SHIFT  16
#define   RCTL_BSIZE_MASK   (3u << 16)
#define   RCTL_VFE          (1u << 18)
#define   RCTL_CFIEN        (1u << 19)
#define   RCTL_CFI          (1u << 20)
#define   RCTL_DPF          (1u << 22)
#define   RCTL_PMCF         (1u << 23)
#define   RCTL_BSEX         (1u << 25)
#define   RCTL_SECRC        (1u << 26)
#define   RCTL_FLXBUF_SHIFT 27
#define   RCTL_FLXBUF_MASK  (0xfu << 27)
/* Early Receive Threshold: 8-byte units of a frame (§10.2.5) */
#define ERT             0x02008
#define   ERT_MASK          0x00003fffu
#define FCRTL           0x02160
#define   FCRTL_XONE        (1u << 31)
#define FCRTH           0x02168
#define PSRCTL          0x02170
#define   PSRCTL_BSIZE0_MASK  0x7fu
#define   PSRCTL_BSIZE1_SHIFT 8
#define   PSRCTL_BSIZE2_SHIFT 16
#define   PSRCTL_BSIZE3_SHIFT 24
#define   PSRCTL_BSIZE123_MASK 0x3fu
#define RDBAL           0x02800
#define RDBAH           0x02804
#define RDLEN           0x02808
#define RDH             0x02810
#define RDT             0x02818
#define RDTR            0x02820
#define   DELAY_FPD         (1u << 31)  /* RDTR/TIDV: flush now */
#define   RDTR_FPD          (1u << 31)
#define RXDCTL          0x02828
#define   RXDCTL_GRAN       (1u << 24)
#define RADV            0x0282c
#define RDBAL1          0x02900
#define RDBAH1          0x02904
#define RDLEN1          0x02908
#define RDH1            0x02910
#define RDT1            0x02918
#define RXDCTL1         0x02928
#define RSRPD           0x02c00
#define RAID            0x02c08
#define RXCSUM          0x05000
#define   RXCSUM_IPOFL      (1u << 8)
#define   RXCSUM_TUOFL      (1u << 9)
#define   RXCSUM_IPPCSE     (1u << 12)
#define   RXCSUM_PCSD       (1u << 13)
#define RFCTL           0x05008
#define   RFCTL_EXTEN       (1u << 15)
#define MTA             0x05200
#define   MTA_WORDS         128
#define RAL(n)          (0x05400 + (n) * 8)
#define RAH(n)          (0x05404 + (n) * 8)
#define   RAH_AV            (1u << 31)
#define   RA_ENTRIES        16
#define VFTA            0x05600
#define   VFTA_WORDS        128
#define MRQC            0x05818
#define   MRQC_TCPIPV4      (1u << 16)
#define   MRQC_IPV4         (1u << 17)
#define   MRQC_TCPIPV6EX    (1u << 18)
#define   MRQC_IPV6EX       (1u << 19)
#define   MRQC_IPV6         (1u << 20)
#define   MRQC_TCPIPV6      (1u << 21)
#define   MRQC_FIELDS       0x003f0000u
#define RETA            0x05c00
#define   RETA_WORDS        32
#define RSSRK           0x05c80
#define   RSSRK_WORDS       10

/* §10.2.6 Transmit registers */
#define TCTL            0x00400
#define   TCTL_EN           (1u << 1)
#define   TCTL_PSP          (1u << 3)
#define TCTL_EXT        0x00404
#define TIPG            0x00410
#define AIT             0x00458
#define TDBAL           0x03800
#define TDBAH           0x03804
#define TDLEN           0x03808
#define TDH             0x03810
#define TDT             0x03818
#define TIDV            0x03820
#define   TIDV_FPD          (1u << 31)
#define TXDCTL          0x03828
#define TADV            0x0382c
#define TARC0           0x03840
#define TDBAL1          0x03900
#define TDBAH1          0x03904
#define TDLEN1          0x03908
#define TDH1            0x03910
#define TDT1            0x03918
#define TXDCTL1         0x03928
#define TARC1           0x03940
#define TDFH            0x03410
#define TDFT            0x03418
#define TDFHS           0x03420
#define TDFTS           0x03428
#define TDFPC           0x03430
#define RDFH            0x02410
#define RDFT            0x02418
#define RDFHS           0x02420
#define RDFTS           0x02428
#define RDFPC           0x02430

/* §10.2.7 Statistics (all clear on read) */
#define CRCERRS         0x04000
#define ALGNERRC        0x04004
#define SYMERRS         0x04008
#define RXERRC          0x0400c
#define MPC             0x04010
#define SCC             0x04014
#define ECOL            0x04018
#define MCC             0x0401c
#define LATECOL         0x04020
#define COLC            0x04028
#define DC              0x04030
#define TNCRS           0x04034
#define SEC             0x04038
#define CEXTERR         0x0403c
#define RLEC            0x04040
#define XONRXC          0x04048
#define XONTXC          0x0404c
#define XOFFRXC         0x04050
#define XOFFTXC         0x04054
#define FCRUC           0x04058
#define PRC64           0x0405c
#define PRC127          0x04060
#define PRC255          0x04064
#define PRC511          0x04068
#define PRC1023         0x0406c
#define PRC1522         0x04070
#define GPRC            0x04074
#define BPRC            0x04078
#define MPRC            0x0407c
#define GPTC            0x04080
#define GORCL           0x04088
#define GORCH           0x0408c
#define GOTCL           0x04090
#define GOTCH           0x04094
#define RNBC            0x040a0
#define RUC             0x040a4
#define RFC             0x040a8
#define ROC             0x040ac
#define RJC             0x040b0
#define MGTPRC          0x040b4
#define MGTPDC          0x040b8
#define MGTPTC          0x040bc
#define TORL            0x040c0
#define TORH            0x040c4
#define TOTL            0x040c8
#define TOTH            0x040cc
#define TPR             0x040d0
#define TPT             0x040d4
#define PTC64           0x040d8
#define PTC127          0x040dc
#define PTC255          0x040e0
#define PTC511          0x040e4
#define PTC1023         0x040e8
#define PTC1522         0x040ec
#define MPTC            0x040f0
#define BPTC            0x040f4
#define TSCTC           0x040f8
#define TSCTFC          0x040fc
#define IAC             0x04100
#define ICRXPTC         0x04104
#define ICRXATC         0x04108
#define ICTXPTC         0x0410c
#define ICTXATC         0x04110
#define ICTXQEC         0x04118
#define ICTXQMTC        0x0411c
#define ICRXDMTC        0x04120
#define ICRXOC          0x04124
#define STATS_FIRST     CRCERRS
#define STATS_LAST      ICRXOC

/* §10.2.8 Wake-up, management, PCIe */
#define WUC             0x05800
#define   WUC_APME          (1u << 0)
#define   WUC_PME_EN        (1u << 1)
#define   WUC_PME_STATUS    (1u << 2)
#define WUFC            0x05808     /* WUS has the same layout */
#define   WUFC_LNKC         (1u << 0)
#define   WUFC_MAG          (1u << 1)
#define   WUFC_EX           (1u << 2)
#define   WUFC_MC           (1u << 3)
#define   WUFC_BC           (1u << 4)
#define WUS             0x05810
#define MANC            0x05820
#define MANC2H          0x05860
#define IPAV            0x05838
#define GCR             0x05b00
#define GSCL_1          0x05b10
#define GSCL_2          0x05b14
#define GSCL_3          0x05b18
#define GSCL_4          0x05b1c
#define FACTPS          0x05b30
#define FUNCTAG         0x05b40
#define SWSM            0x05b50
#define   SWSM_SMBI         (1u << 0)
#define   SWSM_SWESMBI      (1u << 1)
#define FWSM            0x05b54
#define GCR2            0x05b64
#define POEMB           0x05b68

/* §10.2.9 Time sync */
#define SYSTIML         0x0b600
#define SYSTIMH         0x0b604
#define TIMINCA         0x0b608
#define   TIMINCA_IP_SHIFT  24
#define   TIMINCA_IV_MASK   0xffffffu
#define TIMADJL         0x0b60c
#define TIMADJH         0x0b610
#define TSYNCTXCTL      0x0b614
#define   TSYNCTXCTL_VALID  (1u << 0)
#define   TSYNCTXCTL_EN     (1u << 4)
#define TXSTMPL         0x0b618
#define TXSTMPH         0x0b61c
#define TSYNCRXCTL      0x0b620
#define   TSYNCRXCTL_VALID  (1u << 0)
#define   TSYNCRXCTL_TYPE_SHIFT 1
#define   TSYNCRXCTL_TYPE_MASK  (7u << 1)
#define   TSYNCRXCTL_EN     (1u << 4)
#define RXSTMPL         0x0b624
#define RXSTMPH         0x0b628
#define RXSATRL         0x0b62c
#define RXSATRH         0x0b630
/* Message types to stamp: 15:0 L2 EtherType, 23:16 V1 control, 31:24 V2 */
#define RXMTRL          0x0b634
#define RXUDP           0x0b638

/* BAR0 spans 128 KiB; the register file is indexed by dword. */
#define REG_SPACE_BYTES 0x20000u
#define REG_WORDS       (REG_SPACE_BYTES / 4)

#endif
