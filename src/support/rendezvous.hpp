// The bootstrap of a communicator across processes: rank 0 makes a token (NCCL's 128-byte unique
// id) and every other rank receives it, through a file all ranks see or a TCP connection to rank 0.
// Rank 0 returns only once every rank has the token, so that a rank that never comes is reported
// by number rather than as a hang inside NCCL.
#pragma once
#include <array>
#include <chrono>
#include <functional>
#include <string>

namespace ndfuse::support {

using rendezvous_token = std::array<char, 128>;

// `path` must not exist when rank 0 starts (a leftover of a crashed run is refused: remove it);
// rank 0 removes it, and the ranks' arrival marks beside it, once every rank has the token or the
// wait has failed. Throws nf::device_error naming the ranks that did not arrive within `timeout`
// (rank 0), or saying that rank 0 never wrote the token (the others); nf::value_error for a bad
// size or rank; nf::io_error for a file that cannot be written.
rendezvous_token rendezvous_file(const std::string& path, int size, int rank,
                                 std::chrono::milliseconds timeout,
                                 const std::function<rendezvous_token()>& make_token);

// Rank 0 listens on host:port; the others connect (retrying until rank 0 is up) and send their rank.
// Once all have, rank 0 sends each the token; at the timeout it sends the joined ones its reason
// instead. Errors as rendezvous_file's; a port rank 0 cannot bind is nf::device_error naming it.
rendezvous_token rendezvous_tcp(const std::string& host, int port, int size, int rank,
                                std::chrono::milliseconds timeout,
                                const std::function<rendezvous_token()>& make_token);

}  // namespace ndfuse::support
