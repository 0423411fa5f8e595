// Generated from gpu_clock.cu (see there for the command); comment lines left out. Kept in the
// tree so that the injection builds without nvcc;
// tests/cupti/tracing/gpu_clock_ptx_test.cpp checks it.
#include "cupti/tracing/gpu_clock.h"

namespace gpuscope::cupti {

std::string_view GpuClockPtx() {
  static constexpr char kPtx[] = R"ptx(
.version 9.0
.target sm_75
.address_size 64

	// .globl	gpuscope_clock_read

.visible .entry gpuscope_clock_read(
	.param .u64 gpuscope_clock_read_param_0
)
{
	.reg .b64 	%rd<4>;


	ld.param.u64 	%rd2, [gpuscope_clock_read_param_0];
	cvta.to.global.u64 	%rd3, %rd2;
	// begin inline asm
	mov.u64 %rd1, %globaltimer;
	// end inline asm
	st.volatile.global.u64 	[%rd3], %rd1;
	membar.sys;
	ret;

}

)ptx";
  return std::string_view(kPtx, sizeof(kPtx) - 1);
}

}  // namespace gpuscope::cupti
