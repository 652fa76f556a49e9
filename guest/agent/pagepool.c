/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: POOLS, the kernel's page pools as its "netdev"
 * generic netlink family lists them (page-pool-get, Linux 6.8 and
 * later), so the harness sees the pages a driver's pools have out.
 *
 *   POOLS      per pool "D pool id=<n> ifindex=<n|-> napi=<n|->
 *              inflight=<n> inflight_mem=<n> detached=<s|->", then
 *              OK pools=<n>; OK family=absent on a kernel without it
 *
 * A pool whose netdev is gone but whose pages are still out is listed
 * with its detach time and no ifindex; the kernel frees it once the
 * last page comes back.  The numbers are the uapi's
 * (include/uapi/linux/netdev.h, Documentation/netlink/specs/netdev.yaml);
 * the build machine's headers may predate them.
 */

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "agent.h"

#define NETDEV_FAMILY               "netdev"
#define NETDEV_CMD_PAGE_POOL_GET    5
#define POOL_ID                     1
#define POOL_IFINDEX                2
#define POOL_NAPI_ID                3
#define POOL_INFLIGHT               4
#define POOL_INFLIGHT_MEM           5
#define POOL_DETACH_TIME            6

/* A dump of a few pools is one or two messages; never read forever. */
#define POOLS_MAX_MSGS      256
#define POOLS_TIMEOUT_S     2

struct pool {
    uint64_t id, ifindex, napi, inflight, inflight_mem, detached;
    bool has_ifindex, has_napi, has_detached;
};

static int nl_send(int fd, uint16_t type, uint16_t flags, uint8_t cmd,
                   const char *name)
{
    struct {
        struct nlmsghdr nh;
        struct genlmsghdr gh;
        char attrs[64];
    } req;
    size_t len = NLMSG_LENGTH(GENL_HDRLEN);

    memset(&req, 0, sizeof(req));
    req.gh.cmd = cmd;
    req.gh.version = 1;
    if (name) {
        struct nlattr *a = (struct nlattr *)((char *)&req + len);
        size_t n = strlen(name) + 1;

        a->nla_type = CTRL_ATTR_FAMILY_NAME;
        a->nla_len = NLA_HDRLEN + n;
        memcpy((char *)a + NLA_HDRLEN, name, n);
        len += NLA_ALIGN(a->nla_len);
    }
    req.nh.nlmsg_len = len;
    req.nh.nlmsg_type = type;
    req.nh.nlmsg_flags = NLM_F_REQUEST | flags;
    req.nh.nlmsg_seq = 1;
    return send(fd, &req, len, 0) == (ssize_t)len ? 0 : -1;
}

static uint64_t attr_uint(const struct nlattr *a)
{
    size_t n = a->nla_len - NLA_HDRLEN;
    const char *p = (const char *)a + NLA_HDRLEN;
    uint64_t v64 = 0;
    uint32_t v32 = 0;
    uint16_t v16 = 0;

    if (n >= 8) {
        memcpy(&v64, p, 8);
        return v64;
    }
    if (n >= 4) {
        memcpy(&v32, p, 4);
        return v32;
    }
    if (n >= 2) {
        memcpy(&v16, p, 2);
        return v16;
    }
    return 0;
}

/* Walk the attributes of one genetlink message; @fn sees each. */
static void each_attr(const struct nlmsghdr *nh,
                      void (*fn)(const struct nlattr *a, void *opaque),
                      void *opaque)
{
    const char *p = (const char *)NLMSG_DATA(nh) + GENL_HDRLEN;
    const char *end = (const char *)nh + nh->nlmsg_len;

    while (p + NLA_HDRLEN <= end) {
        const struct nlattr *a = (const struct nlattr *)p;

        if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end) {
            return;
        }
        fn(a, opaque);
        p += NLA_ALIGN(a->nla_len);
    }
}

static void family_attr(const struct nlattr *a, void *opaque)
{
    if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID) {
        *(int *)opaque = (int)attr_uint(a);
    }
}

static void pool_attr(const struct nlattr *a, void *opaque)
{
    struct pool *p = opaque;

    switch (a->nla_type & NLA_TYPE_MASK) {
    case POOL_ID:
        p->id = attr_uint(a);
        break;
    case POOL_IFINDEX:
        p->ifindex = attr_uint(a);
        p->has_ifindex = true;
        break;
    case POOL_NAPI_ID:
        p->napi = attr_uint(a);
        p->has_napi = true;
        break;
    case POOL_INFLIGHT:
        p->inflight = attr_uint(a);
        break;
    case POOL_INFLIGHT_MEM:
        p->inflight_mem = attr_uint(a);
        break;
    case POOL_DETACH_TIME:
        p->detached = attr_uint(a);
        p->has_detached = true;
        break;
    }
}

static void report_pool(const struct pool *p)
{
    char line[256], ifx[24] = "-", napi[24] = "-", det[24] = "-";
    int n;

    if (p->has_ifindex) {
        snprintf(ifx, sizeof(ifx), "%llu", (unsigned long long)p->ifindex);
    }
    if (p->has_napi) {
        snprintf(napi, sizeof(napi), "%llu", (unsigned long long)p->napi);
    }
    if (p->has_detached) {
        snprintf(det, sizeof(det), "%llu", (unsigned long long)p->detached);
    }
    n = snprintf(line, sizeof(line),
                 "pool id=%llu ifindex=%s napi=%s inflight=%llu "
                 "inflight_mem=%llu detached=%s",
                 (unsigned long long)p->id, ifx, napi,
                 (unsigned long long)p->inflight,
                 (unsigned long long)p->inflight_mem, det);
    reply_data(line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

/*
 * Read one request's answer: each message to @fn (family lookup or pool),
 * until NLMSG_DONE or an ACK/error; the error (0 when none) or -1.
 */
static int nl_recv(int fd, bool dump, void (*fn)(const struct nlmsghdr *nh,
                                                void *opaque),
                   void *opaque)
{
    static char buf[32768];
    int msgs;

    for (msgs = 0; msgs < POOLS_MAX_MSGS; msgs++) {
        ssize_t n = recv(fd, buf, sizeof(buf), 0);
        struct nlmsghdr *nh;
        size_t left;

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        left = (size_t)n;
        for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, left);
             nh = NLMSG_NEXT(nh, left)) {
            if (nh->nlmsg_type == NLMSG_DONE) {
                return 0;
            }
            if (nh->nlmsg_type == NLMSG_ERROR) {
                const struct nlmsgerr *e = NLMSG_DATA(nh);

                return e->error;
            }
            fn(nh, opaque);
            if (!dump) {
                return 0;
            }
        }
    }
    return -1;
}

static void on_family(const struct nlmsghdr *nh, void *opaque)
{
    each_attr(nh, family_attr, opaque);
}

static void on_pool(const struct nlmsghdr *nh, void *opaque)
{
    struct pool p;

    memset(&p, 0, sizeof(p));
    each_attr(nh, pool_attr, &p);
    report_pool(&p);
    (*(int *)opaque)++;
}

void cmd_pools(int argc, char **argv)
{
    struct timeval tv = { .tv_sec = POOLS_TIMEOUT_S };
    int fd, family = -1, count = 0, err;

    if (argc != 1 || !argv[0]) {
        reply("ERR usage: POOLS");
        return;
    }
    fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
    if (fd < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
        reply("ERR netlink socket: %s", strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    if (nl_send(fd, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY,
                NETDEV_FAMILY) < 0) {
        reply("ERR netlink send: %s", strerror(errno));
        close(fd);
        return;
    }
    err = nl_recv(fd, false, on_family, &family);
    if (err == -ENOENT || (err == 0 && family < 0)) {
        close(fd);
        reply("OK family=absent");
        return;
    }
    if (err < 0 || family < 0) {
        close(fd);
        reply("ERR family lookup: %s", err < -1 ? strerror(-err) : "no answer");
        return;
    }
    if (nl_send(fd, (uint16_t)family, NLM_F_DUMP, NETDEV_CMD_PAGE_POOL_GET,
                NULL) < 0) {
        reply("ERR netlink send: %s", strerror(errno));
        close(fd);
        return;
    }
    err = nl_recv(fd, true, on_pool, &count);
    close(fd);
    if (err == -EOPNOTSUPP || err == -EINVAL) {
        /* A netdev family older than page-pool-get (6.5 to 6.7). */
        reply("OK family=absent");
    } else if (err < 0) {
        reply("ERR page-pool-get: %s", err < -1 ? strerror(-err) :
              "no answer");
    } else {
        reply("OK pools=%d", count);
    }
}
