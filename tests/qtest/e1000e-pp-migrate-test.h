/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The migration scenarios in files of their own (e1000e-pp-migrate-test
 * registers them with those of e1000e-pp-migrate-test.c).
 */

#ifndef E1000E_PP_MIGRATE_TEST_H
#define E1000E_PP_MIGRATE_TEST_H

/* e1000e-pp-migrate-wb.c */
void migrate_held_writebacks_flush_at_wthresh(const char *model);

/* e1000e-pp-migrate-tx.c */
void migrate_mid_tso_sends_the_same_segments(const char *model);

/* e1000e-pp-migrate-hostile.c */
void migrate_hostile_streams_refused_or_survived(const char *model);

#endif /* E1000E_PP_MIGRATE_TEST_H */
