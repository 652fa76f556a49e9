/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Migration for qtests (e1000e-pp-migrate.c): the VM of a running
 * scenario saved to a file with QMP "migrate", and a second QEMU with
 * the same machine and device started with "-incoming defer" that
 * loads it ("migrate-incoming") and continues, its virtual clock set to
 * the source's first, so every deadline falls where it would have.
 */

#ifndef E1000E_PP_MIGRATE_H
#define E1000E_PP_MIGRATE_H

#include "e1000e-pp-drv.h"

/*
 * The mid-frame state the migration tests start from: extended
 * descriptors, the CRC kept, LPE, one 2 KB buffer posted at `first`,
 * then a 5000-byte frame (epp_frame_fill seq 1): 2048 of its 5004 bytes are
 * in host memory, the rest waits in the packet buffer for RDT.
 */
#define EPP_MID_FRAME_LEN  5000
#define EPP_MID_FRAME_BUF  2048
extern const EppConfig epp_ext_keep_crc;
void epp_mid_frame(EppDev *d, uint64_t first);

/* A stream file for this process ("<tmp>/e1000e-pp-<pid>-<n>.mig") */
char *epp_stream_path(void);

/* Ask qts for MIGRATION events; the one that ends a migration: */
void epp_migration_events(QTestState *qts);
/* "completed" or "failed" (g_free it) */
char *epp_migration_end(QTestState *qts);

/* Save src's VM to path; src is stopped (postmigrate) afterwards. */
void epp_save(EppDev *src, const char *path);

/*
 * A destination QEMU for src (same model, dev_props and extra_args as
 * src was started with), loaded from path and running: the driver
 * state (rings, tails, allocator) continues from src's.
 */
EppDev *epp_restore(EppDev *src, const char *path,
                    const char *dev_props, const char *extra_args);

/* Save and restore through a temporary file; src is stopped and freed. */
EppDev *epp_migrate(EppDev *src, const char *dev_props,
                    const char *extra_args);

/*
 * A destination that must refuse path: it exits with EXIT_FAILURE (no
 * crash, no hang). Returns what it wrote to stderr.
 */
char *epp_restore_refused(const char *model, const char *dev_props,
                          const char *path);

#endif /* E1000E_PP_MIGRATE_H */
