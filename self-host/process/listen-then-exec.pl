# listen-then-exec.pl ADDRESS PORT COMMAND [ARG...]
#
# Opens a TCP socket with SO_REUSEPORT, binds ADDRESS:PORT (an IP literal), listens, puts the
# socket on fd 3 and replaces itself with COMMAND (same pid), which serves on that fd
# (`workerd serve --socket-fd=http=3`). Every process started this way on one port has a
# listening socket of its own, and Linux spreads new connections evenly over them: with one
# shared socket, whichever process wakes first takes a burst of connections whole.
#
# Perl, because Node.js before 22.12 cannot set SO_REUSEPORT and cannot exec; perl-base is
# part of every Debian and Ubuntu system. self-host/process/reuse-port.ts checks that it can
# be used before anything relies on it.
use strict;
use warnings;
use Socket qw(:addrinfo SOCK_STREAM SOL_SOCKET SO_REUSEADDR SO_REUSEPORT IPPROTO_IPV6 IPV6_V6ONLY AF_INET6);
use Fcntl qw(F_SETFD);
use POSIX ();

my ($address, $port, @command) = @ARGV;
die "usage: listen-then-exec.pl ADDRESS PORT COMMAND [ARG...]\n" unless defined $port && @command;
my $shown = $address =~ /:/ ? "[$address]:$port" : "$address:$port";

my ($error, $info) = getaddrinfo($address, $port,
  { socktype => SOCK_STREAM, flags => AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV });
die "cannot listen on $shown: $error\n" if $error;

socket(my $socket, $info->{family}, SOCK_STREAM, 0) or die "cannot listen on $shown: socket: $!\n";
setsockopt($socket, SOL_SOCKET, SO_REUSEADDR, 1) or die "cannot listen on $shown: SO_REUSEADDR: $!\n";
setsockopt($socket, SOL_SOCKET, SO_REUSEPORT, 1) or die "cannot listen on $shown: SO_REUSEPORT: $!\n";
# An IPv6 wildcard takes IPv4 too, as the supervisor's own shared socket does.
if ($info->{family} == AF_INET6) {
  setsockopt($socket, IPPROTO_IPV6, IPV6_V6ONLY, 0) or die "cannot listen on $shown: IPV6_V6ONLY: $!\n";
}
bind($socket, $info->{addr}) or die "cannot listen on $shown: $!\n";
listen($socket, 511) or die "cannot listen on $shown: listen: $!\n";

# Perl marks its own descriptors close-on-exec; the one COMMAND serves on must survive the exec.
if (fileno($socket) == 3) {
  fcntl($socket, F_SETFD, 0) or die "fcntl: $!\n";
} else {
  defined POSIX::dup2(fileno($socket), 3) or die "dup2: $!\n";
}
{ no warnings 'exec'; exec { $command[0] } @command }
die "cannot run $command[0]: $!\n";
