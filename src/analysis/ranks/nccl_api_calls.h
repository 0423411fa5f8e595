// NCCL's API calls as a report records them: NCCL (2.19 and later, built with NVTX) opens an
// NVTX range in its own domain "NCCL" around each API call, named after the function
// ("ncclAllReduce", "ncclGroupEnd", "ncclCommInitRank"). The message size and the
// communicator travel in the range's extended payload, which CUPTI does not hand over and
// reports do not store: those calls' bytes are unknown. Builds that print them into the
// message instead (RCCL-style "ncclAllReduce(): commHash 0x..., data_size 4096, ...", in any
// domain) give them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/records.h"

namespace gpuscope::analysis::ranks {

// The NVTX domain NCCL registers.
inline constexpr std::string_view kNcclNvtxDomain = "NCCL";

struct NcclApiCall {
  std::string name;                    // "ncclAllReduce"
  std::optional<std::uint64_t> bytes;  // the message size, when the range's text gives it
  std::string communicator;            // "0x5f3a..." (commHash), when the text gives it
};

// The NCCL API call an NVTX range stands for; nullopt for any other range, for marks and for
// ranges that never ended.
std::optional<NcclApiCall> RecognizeNcclApiCall(const model::NvtxRecord& range);

}  // namespace gpuscope::analysis::ranks
