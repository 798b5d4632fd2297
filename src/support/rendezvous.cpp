#include "support/rendezvous.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>
#include <utility>
#include <vector>

#include "ndfuse/error.hpp"

namespace ndfuse::support {

namespace {

using clock = std::chrono::steady_clock;
constexpr auto poll_interval = std::chrono::milliseconds(20);

void check_ranks(const char* op, int size, int rank) {
  if (size < 1)
    throw value_error(std::string(op) + ": the world size must be at least 1, not " + std::to_string(size));
  if (rank < 0 || rank >= size)
    throw value_error(std::string(op) + ": rank " + std::to_string(rank) + " is outside 0.." +
                      std::to_string(size - 1));
}

std::string seconds(std::chrono::milliseconds t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", static_cast<double>(t.count()) / 1000.0);
  return buf;
}

// "rank 3" or "ranks 1, 2 and 5".
std::string rank_list(const std::vector<int>& ranks) {
  std::string s = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) s += i + 1 == ranks.size() ? " and " : ", ";
    s += std::to_string(ranks[i]);
  }
  return s;
}

// ---- through a file --------------------------------------------------------------------------------

std::string mark_path(const std::string& path, int rank) {
  return path + ".rank" + std::to_string(rank);
}

bool read_token(const std::string& path, rendezvous_token& token) {
  std::ifstream in(path, std::ios::binary);
  return in && in.read(token.data(), static_cast<std::streamsize>(token.size())) &&
         in.gcount() == static_cast<std::streamsize>(token.size());
}

// Writes `bytes` to `path` whole: a temporary file linked into place, which fails if `path` exists.
bool publish_exclusive(const std::string& path, const char* data, std::size_t n, const char* op) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw io_error(std::string(op) + ": cannot write '" + tmp + "': " + std::strerror(errno));
    out.write(data, static_cast<std::streamsize>(n));
    if (!out.flush())
      throw io_error(std::string(op) + ": cannot write '" + tmp + "': " + std::strerror(errno));
  }
  const bool linked = ::link(tmp.c_str(), path.c_str()) == 0;
  std::remove(tmp.c_str());
  return linked;
}

}  // namespace

rendezvous_token rendezvous_file(const std::string& path, int size, int rank,
                                 std::chrono::milliseconds timeout,
                                 const std::function<rendezvous_token()>& make_token) {
  constexpr const char* op = "distributed::init_from_file";
  check_ranks(op, size, rank);
  const auto deadline = clock::now() + timeout;
  rendezvous_token token{};
  if (rank != 0) {
    while (!read_token(path, token)) {
      if (clock::now() >= deadline)
        throw device_error(std::string(op) + ": rank " + std::to_string(rank) + " waited " +
                           seconds(timeout) + " for rank 0 to write the NCCL id to '" + path +
                           "'; rank 0 never did");
      std::this_thread::sleep_for(poll_interval);
    }
    if (!publish_exclusive(mark_path(path, rank), token.data(), token.size(), op))
      throw value_error(std::string(op) + ": rank " + std::to_string(rank) + " joined twice at '" + path +
                        "'");
    return token;
  }
  token = make_token();
  if (!publish_exclusive(path, token.data(), token.size(), op))
    throw value_error(std::string(op) + ": '" + path +
                      "' already exists, left by an earlier run; remove it first");
  std::vector<int> missing;
  for (;;) {
    missing.clear();
    for (int r = 1; r < size; ++r) {
      rendezvous_token seen{};
      if (!read_token(mark_path(path, r), seen) || seen != token) missing.push_back(r);
    }
    if (missing.empty() || clock::now() >= deadline) break;
    std::this_thread::sleep_for(poll_interval);
  }
  std::error_code ec;
  std::filesystem::remove(path, ec);
  for (int r = 1; r < size; ++r) std::filesystem::remove(mark_path(path, r), ec);
  if (!missing.empty())
    throw device_error(std::string(op) + ": " + rank_list(missing) + " of " + std::to_string(size) +
                       " never joined at '" + path + "' (rank 0 waited " + seconds(timeout) + ")");
  return token;
}

// ---- through TCP -----------------------------------------------------------------------------------

namespace {

constexpr auto answer_grace = std::chrono::seconds(5);
constexpr std::uint32_t hello_magic = 0x4e46524e;  // "NRFN": an ndfuse rank's hello
enum : std::uint8_t { reply_token = 0, reply_failure = 1 };

class socket_fd {
 public:
  explicit socket_fd(int fd = -1) : fd_(fd) {}
  ~socket_fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  socket_fd(socket_fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  socket_fd& operator=(socket_fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

int millis_left(clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
}

// Waits for `events` on fd until the deadline; false at the deadline.
bool wait_for(int fd, short events, clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int rc = ::poll(&p, 1, millis_left(deadline));
    if (rc > 0) return true;
    if (rc == 0) return false;
    if (errno != EINTR) return false;
  }
}

bool send_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

// Reads exactly n bytes before the deadline; false on a timeout, a closed connection or an error.
bool recv_all(int fd, void* data, std::size_t n, clock::time_point deadline) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    if (!wait_for(fd, POLLIN, deadline)) return false;
    const ssize_t k = ::recv(fd, p, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

void put_u32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
}
std::uint32_t get_u32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

struct addrinfo_list {
  addrinfo* head = nullptr;
  ~addrinfo_list() {
    if (head) ::freeaddrinfo(head);
  }
};

addrinfo_list resolve(const std::string& host, int port, bool passive, const char* op) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (passive) hints.ai_flags = AI_PASSIVE;
  addrinfo_list list;
  const std::string service = std::to_string(port);
  const int rc = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &list.head);
  if (rc != 0) throw device_error(std::string(op) + ": cannot resolve '" + host + "': " + ::gai_strerror(rc));
  return list;
}

std::string where(const std::string& host, int port) {
  return host + ":" + std::to_string(port);
}

rendezvous_token serve(const std::string& host, int port, int size, std::chrono::milliseconds timeout,
                       const std::function<rendezvous_token()>& make_token, const char* op) {
  const auto deadline = clock::now() + timeout;
  const addrinfo_list addrs = resolve(host, port, true, op);
  socket_fd listener;
  std::string why = "no address";
  for (addrinfo* a = addrs.head; a; a = a->ai_next) {
    socket_fd s(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol));
    if (s.get() < 0) continue;
    const int one = 1;
    ::setsockopt(s.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(s.get(), a->ai_addr, a->ai_addrlen) == 0 && ::listen(s.get(), 1024) == 0) {
      listener = std::move(s);
      break;
    }
    why = std::strerror(errno);
  }
  if (listener.get() < 0)
    throw device_error(std::string(op) + ": rank 0 cannot listen on " + where(host, port) + ": " + why);
  const rendezvous_token token = make_token();

  std::map<int, socket_fd> joined;  // by rank
  auto fail_all = [&](const std::string& message) {
    std::string reply(1, static_cast<char>(reply_failure));
    put_u32(reply, static_cast<std::uint32_t>(message.size()));
    reply += message;
    for (auto& [r, s] : joined) send_all(s.get(), reply.data(), reply.size());
    return device_error(std::string(op) + ": " + message);
  };
  while (static_cast<int>(joined.size()) < size - 1) {
    if (!wait_for(listener.get(), POLLIN, deadline)) break;
    socket_fd c(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (c.get() < 0) continue;
    char hello[12];
    // A connection that says nothing valid quickly is someone else's (a port scanner): dropped.
    if (!recv_all(c.get(), hello, sizeof hello, std::min(deadline, clock::now() + std::chrono::seconds(5))) ||
        get_u32(hello) != hello_magic)
      continue;
    const int their_size = static_cast<int>(get_u32(hello + 4)),
              their_rank = static_cast<int>(get_u32(hello + 8));
    std::string refusal;
    if (their_size != size)
      refusal = "rank " + std::to_string(their_rank) + " was started with world size " +
                std::to_string(their_size) + ", rank 0 with " + std::to_string(size);
    else if (their_rank <= 0 || their_rank >= size)
      refusal = "a process joined as rank " + std::to_string(their_rank) + ", outside 1.." +
                std::to_string(size - 1);
    else if (joined.count(their_rank))
      refusal = "two processes joined as rank " + std::to_string(their_rank) + " at " + where(host, port);
    if (!refusal.empty()) {
      joined.emplace(-1, std::move(c));  // the offending process hears the reason too, with the others
      throw fail_all(refusal);
    }
    joined.emplace(their_rank, std::move(c));
  }
  if (static_cast<int>(joined.size()) < size - 1) {
    std::vector<int> missing;
    for (int r = 1; r < size; ++r)
      if (!joined.count(r)) missing.push_back(r);
    throw fail_all(rank_list(missing) + " of " + std::to_string(size) + " never joined at " +
                   where(host, port) + " (rank 0 waited " + seconds(timeout) + ")");
  }
  std::string reply(1, static_cast<char>(reply_token));
  reply.append(token.data(), token.size());
  for (auto& [r, s] : joined)
    if (!send_all(s.get(), reply.data(), reply.size()))
      throw device_error(std::string(op) + ": rank " + std::to_string(r) +
                         " closed its connection before it had the id");
  return token;
}

rendezvous_token join(const std::string& host, int port, int size, int rank,
                      std::chrono::milliseconds timeout, const char* op) {
  const auto deadline = clock::now() + timeout;
  socket_fd s;
  while (s.get() < 0) {
    const addrinfo_list addrs = resolve(host, port, false, op);
    for (addrinfo* a = addrs.head; a && s.get() < 0; a = a->ai_next) {
      socket_fd c(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol));
      if (c.get() >= 0 && ::connect(c.get(), a->ai_addr, a->ai_addrlen) == 0) s = std::move(c);
    }
    if (s.get() >= 0) break;
    if (clock::now() >= deadline)
      throw device_error(std::string(op) + ": rank " + std::to_string(rank) + " could not reach rank 0 at " +
                         where(host, port) + " within " + seconds(timeout));
    std::this_thread::sleep_for(poll_interval);
  }
  std::string hello;
  put_u32(hello, hello_magic);
  put_u32(hello, static_cast<std::uint32_t>(size));
  put_u32(hello, static_cast<std::uint32_t>(rank));
  char status = 0;
  // Rank 0 gives its verdict when its own wait ends, which began about when this one did: the
  // answer gets a grace period past this rank's timeout, so that the reason rank 0 gives (which
  // rank is missing) arrives rather than a bare timeout here.
  const auto answer_deadline = deadline + answer_grace;
  if (!send_all(s.get(), hello.data(), hello.size()) || !recv_all(s.get(), &status, 1, answer_deadline))
    throw device_error(std::string(op) + ": rank " + std::to_string(rank) + " had no answer from rank 0 at " +
                       where(host, port) + " within " + seconds(timeout));
  if (status == reply_failure) {
    char len[4];
    std::string message = "rank 0 gave up without saying why";
    if (recv_all(s.get(), len, 4, answer_deadline)) {
      std::string m(std::min<std::uint32_t>(get_u32(len), 1 << 16), '\0');
      if (recv_all(s.get(), m.data(), m.size(), answer_deadline)) message = m;
    }
    throw device_error(std::string(op) + ": rank " + std::to_string(rank) +
                       " stopped: rank 0 reports: " + message);
  }
  rendezvous_token token{};
  if (!recv_all(s.get(), token.data(), token.size(), answer_deadline))
    throw device_error(std::string(op) + ": rank " + std::to_string(rank) + ": rank 0 closed the connection");
  return token;
}

}  // namespace

rendezvous_token rendezvous_tcp(const std::string& host, int port, int size, int rank,
                                std::chrono::milliseconds timeout,
                                const std::function<rendezvous_token()>& make_token) {
  constexpr const char* op = "distributed::init_from_tcp";
  check_ranks(op, size, rank);
  if (port <= 0 || port > 65535)
    throw value_error(std::string(op) + ": port " + std::to_string(port) + " is not 1..65535");
  return rank == 0 ? serve(host, port, size, timeout, make_token, op)
                   : join(host, port, size, rank, timeout, op);
}

}  // namespace ndfuse::support
