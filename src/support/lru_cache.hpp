// The one least-recently-used cache template: the vendor-library handles and plans (cuBLAS, cuSOLVER,
// cuFFT, FFTW) and the fuser's plan memo. Least recently used entries go
// first once `capacity` is reached; a miss builds the value with the caller's function.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <list>
#include <unordered_map>
#include <utility>

namespace ndfuse::support {

template <class Key, class Value, class Hash = std::hash<Key>>
class lru_cache {
 public:
  explicit lru_cache(std::size_t capacity) : capacity_(capacity ? capacity : 1) {}

  // The value for `key`, made by make() when absent (misses() counts those).
  template <class Make>
  Value& get(const Key& key, Make&& make) {
    if (auto it = index_.find(key); it != index_.end()) {
      entries_.splice(entries_.begin(), entries_, it->second);  // now the most recently used
      return it->second->second;
    }
    if (entries_.size() == capacity_) {
      index_.erase(entries_.back().first);
      entries_.pop_back();
    }
    entries_.emplace_front(key, make());
    index_.emplace(key, entries_.begin());
    ++misses_;
    return entries_.front().second;
  }

  // The most recently used value when its key is `key`, else nullptr: no hashing, and nothing to
  // reorder. A loop that asks for the same key every iteration (the plan memo) hits here.
  Value* most_recent(const Key& key) {
    if (entries_.empty() || !(entries_.front().first == key)) return nullptr;
    return &entries_.front().second;
  }
  // The same for a key held in another form (a range of the key's elements, with no copy made).
  template <class Range>
  Value* most_recent_equal(const Range& key) {
    if (entries_.empty() || !std::ranges::equal(entries_.front().first, key)) return nullptr;
    return &entries_.front().second;
  }

  std::size_t size() const { return entries_.size(); }
  std::uint64_t misses() const { return misses_; }
  void clear() {
    index_.clear();
    entries_.clear();
  }

 private:
  std::size_t capacity_;
  std::list<std::pair<Key, Value>> entries_;
  std::unordered_map<Key, typename std::list<std::pair<Key, Value>>::iterator, Hash> index_;
  std::uint64_t misses_ = 0;
};

}  // namespace ndfuse::support
