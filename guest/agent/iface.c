/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: the guest's network interface as the verbs see it, its
 * MAC address and index, and AF_PACKET sockets bound to it.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"

int if_mac(const char *ifname, uint8_t *mac, int *ifindex)
{
    struct ifreq ifr;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int ret = -1;

    if (fd < 0) {
        return -1;
    }
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    if (ioctl(fd, SIOCGIFHWADDR, &ifr) == 0) {
        memcpy(mac, ifr.ifr_hwaddr.sa_data, PP_ETH_ALEN);
        if (ioctl(fd, SIOCGIFINDEX, &ifr) == 0) {
            *ifindex = ifr.ifr_ifindex;
            ret = 0;
        }
    }
    close(fd);
    return ret;
}

int packet_socket(int ifindex, uint16_t proto, int rcvbuf, bool vnet_hdr)
{
    struct sockaddr_ll sll;
    int one = 1;
    /* Protocol 0 until bound: no frame of another interface slips in. */
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);

    if (fd < 0) {
        return -1;
    }
    /* Before bind, so that every frame read carries the virtio header. */
    if (vnet_hdr && setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &one,
                               sizeof(one)) < 0) {
        close(fd);
        return -1;
    }
    if (rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
                             sizeof(rcvbuf)) < 0) {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
    }
    memset(&sll, 0, sizeof(sll));
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(proto);
    sll.sll_ifindex = ifindex;
    if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}
