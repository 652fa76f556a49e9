// SPDX-License-Identifier: GPL-2.0-only
/* udphold COUNT SIZE HOLD: send COUNT datagrams of SIZE bytes to the peer's
 * UDP echo (198.18.0.1:7) from one socket, then sleep HOLD seconds without
 * reading, so /proc/net/udp's rx_queue shows the echoes' skb truesize sum.
 * No libc: x86-64 Linux syscalls only, so the binary is a few KB.
 */
typedef unsigned long u64;
static long sc(long n, long a, long b, long c, long d, long e)
{
	long r;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c),
			 "r"(r10), "r"(r8) : "rcx", "r11", "memory");
	return r;
}
static long num(const char *s)
{
	long v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}
static char buf[9216];
void cmain(long *sp)
{
	char **argv = (char **)(sp + 1);
	long count = num(argv[1]), size = num(argv[2]), hold = num(argv[3]);
	struct { unsigned short fam, port; unsigned int addr; char z[8]; } sa =
		{ 2, 7 << 8, 198 | 18 << 8 | 0 << 16 | 1 << 24, {0} };
	struct { long s, ns; } ts = { 0, 20000000 }, th = { hold, 0 };
	long fd = sc(41, 2, 2, 0, 0, 0);	/* socket(AF_INET, SOCK_DGRAM) */
	long i;

	if (fd < 0 || sc(42, fd, (long)&sa, 16, 0, 0) < 0)	/* connect */
		sc(60, 2, 0, 0, 0, 0);
	for (i = 0; i < size; i++)
		buf[i] = 'a' + i % 26;
	for (i = 0; i < count; i++) {
		sc(44, fd, (long)buf, size, 0, 0);	/* sendto */
		sc(35, (long)&ts, 0, 0, 0, 0);		/* nanosleep */
	}
	sc(35, (long)&th, 0, 0, 0, 0);
	sc(60, 0, 0, 0, 0, 0);
}
__asm__(".globl _start\n_start:\n mov %rsp,%rdi\n and $-16,%rsp\n call cmain\n");
