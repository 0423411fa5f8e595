#include "cupti/pm_sampling/pm_sampling_recording.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

namespace gpuscope::cupti {
namespace {

constexpr std::string_view kMagic = "gpuscope-pm-sampling-recording-1\n";

class Writer {
 public:
  void U8(std::uint8_t v) { bytes_.push_back(v); }
  void I32(std::int32_t v) { Raw(&v, sizeof v); }
  void U32(std::uint32_t v) { Raw(&v, sizeof v); }
  void U64(std::uint64_t v) { Raw(&v, sizeof v); }
  void Bytes(const void* data, std::size_t size) {
    U64(size);
    Raw(data, size);
  }
  void Compressed(const std::vector<std::uint8_t>& data) {
    uLongf size = compressBound(data.size());
    std::vector<std::uint8_t> packed(size);
    if (compress2(packed.data(), &size, data.data(), data.size(), 6) != Z_OK) size = 0;
    packed.resize(size);
    U64(data.size());
    Bytes(packed.data(), packed.size());
  }
  std::vector<std::uint8_t> Take() { return std::move(bytes_); }

 private:
  void Raw(const void* data, std::size_t size) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  std::vector<std::uint8_t> bytes_;
};

class Reader {
 public:
  explicit Reader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  std::uint8_t U8() { return Fixed<std::uint8_t>(); }
  std::int32_t I32() { return Fixed<std::int32_t>(); }
  std::uint32_t U32() { return Fixed<std::uint32_t>(); }
  std::uint64_t U64() { return Fixed<std::uint64_t>(); }
  std::vector<std::uint8_t> Bytes() {
    const std::uint64_t size = U64();
    if (!ok_ || size > bytes_.size() - at_) {
      ok_ = false;
      return {};
    }
    std::vector<std::uint8_t> out(bytes_.begin() + at_, bytes_.begin() + at_ + size);
    at_ += size;
    return out;
  }
  std::vector<std::uint8_t> Compressed() {
    const std::uint64_t size = U64();
    const std::vector<std::uint8_t> packed = Bytes();
    if (!ok_ || size > (1ull << 31)) {
      ok_ = false;
      return {};
    }
    std::vector<std::uint8_t> out(size);
    uLongf out_size = size;
    if (uncompress(out.data(), &out_size, packed.data(), packed.size()) != Z_OK ||
        out_size != size) {
      ok_ = false;
      return {};
    }
    return out;
  }
  bool Expect(std::string_view text) {
    if (bytes_.size() - at_ < text.size() ||
        std::memcmp(bytes_.data() + at_, text.data(), text.size()) != 0) {
      ok_ = false;
    } else {
      at_ += text.size();
    }
    return ok_;
  }

 private:
  template <typename T>
  T Fixed() {
    T value{};
    if (!ok_ || bytes_.size() - at_ < sizeof(T)) {
      ok_ = false;
      return value;
    }
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  const std::vector<std::uint8_t>& bytes_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace

std::vector<std::uint8_t> EncodePmSamplingRecording(const PmSamplingRecording& recording) {
  Writer out;
  for (char c : kMagic) out.U8(static_cast<std::uint8_t>(c));
  out.Bytes(recording.chip.data(), recording.chip.size());
  out.Bytes(recording.availability.data(), recording.availability.size());
  out.U32(static_cast<std::uint32_t>(recording.image_sizes.size()));
  for (const auto& [samples, bytes] : recording.image_sizes) {
    out.U32(samples);
    out.U64(bytes);
  }
  out.Compressed(recording.initialized_image);
  out.U32(static_cast<std::uint32_t>(recording.decodes.size()));
  for (const PmSamplingRecording::Decode& decode : recording.decodes) {
    out.I32(decode.result);
    out.I32(decode.stop_reason);
    out.U8(decode.overflow);
    out.Compressed(decode.image);
    out.U32(static_cast<std::uint32_t>(decode.samples.size()));
    for (const PmSamplingRecording::Sample& sample : decode.samples) {
      out.I32(sample.result);
      out.U64(sample.start);
      out.U64(sample.end);
    }
  }
  return out.Take();
}

StatusOr<PmSamplingRecording> DecodePmSamplingRecording(const std::vector<std::uint8_t>& bytes) {
  Reader in(bytes);
  if (!in.Expect(kMagic)) return Status::Error("not a PM sampling recording");
  PmSamplingRecording recording;
  const std::vector<std::uint8_t> chip = in.Bytes();
  recording.chip.assign(chip.begin(), chip.end());
  recording.availability = in.Bytes();
  const std::uint32_t sizes = in.U32();
  for (std::uint32_t i = 0; in.ok() && i < sizes; ++i) {
    const std::uint32_t samples = in.U32();
    recording.image_sizes.emplace_back(samples, in.U64());
  }
  recording.initialized_image = in.Compressed();
  const std::uint32_t decodes = in.U32();
  for (std::uint32_t d = 0; in.ok() && d < decodes; ++d) {
    PmSamplingRecording::Decode& decode = recording.decodes.emplace_back();
    decode.result = in.I32();
    decode.stop_reason = in.I32();
    decode.overflow = in.U8();
    decode.image = in.Compressed();
    const std::uint32_t samples = in.U32();
    for (std::uint32_t s = 0; in.ok() && s < samples; ++s) {
      PmSamplingRecording::Sample& sample = decode.samples.emplace_back();
      sample.result = in.I32();
      sample.start = in.U64();
      sample.end = in.U64();
    }
  }
  if (!in.ok()) return Status::Error("the PM sampling recording is truncated or damaged");
  return recording;
}

StatusOr<PmSamplingRecording> ReadPmSamplingRecording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open " + path);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  StatusOr<PmSamplingRecording> recording = DecodePmSamplingRecording(bytes);
  if (!recording.ok()) return Status::Error(path + ": " + recording.status().message());
  return recording;
}

}  // namespace gpuscope::cupti
