/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: the pcap of every frame either way (libpcap,
 * LINKTYPE_ETHERNET, no FCS), stamped when the frame is queued or
 * received and flushed at once, so a test can read it while the peer runs.
 */

#include <sys/time.h>

#include <pcap/pcap.h>

#include "peer.h"

static pcap_t *pcap_handle;
static pcap_dumper_t *pcap;

void capture_close(void)
{
    if (pcap) {
        pcap_dump_close(pcap);
        pcap_close(pcap_handle);
        pcap = NULL;
        pcap_handle = NULL;
    }
}

void capture_open(const char *path)
{
    capture_close();
    pcap_handle = pcap_open_dead(DLT_EN10MB, PEER_FRAME_MAX);
    if (!pcap_handle) {
        peer_die("pcap_open_dead failed");
    }
    pcap = pcap_dump_open(pcap_handle, path);
    if (!pcap) {
        peer_die("cannot write pcap %s: %s", path, pcap_geterr(pcap_handle));
    }
    pcap_dump_flush(pcap);
}

void capture_write(const uint8_t *frame, size_t len)
{
    struct pcap_pkthdr hdr;

    if (!pcap) {
        return;
    }
    gettimeofday(&hdr.ts, NULL);
    hdr.caplen = len;
    hdr.len = len;
    pcap_dump((u_char *)pcap, &hdr, frame);
    pcap_dump_flush(pcap);
}
