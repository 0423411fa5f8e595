// Generated from l2_flush.cu (see there for the command); comment lines left out. Kept in the
// tree so that the injection builds without nvcc;
// tests/cupti/profiler/l2_flush_ptx_test.cpp checks it.
#include "cupti/profiler/l2_flush.h"

namespace gpuscope::cupti {

std::string_view L2FlushPtx() {
  static constexpr char kPtx[] = R"ptx(
.version 9.0
.target sm_75
.address_size 64

	// .globl	gpuscope_l2_flush

.visible .entry gpuscope_l2_flush(
	.param .u64 gpuscope_l2_flush_param_0,
	.param .u64 gpuscope_l2_flush_param_1,
	.param .u64 gpuscope_l2_flush_param_2
)
{
	.reg .pred 	%p<4>;
	.reg .f32 	%f<12>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<16>;


	ld.param.u64 	%rd7, [gpuscope_l2_flush_param_0];
	ld.param.u64 	%rd8, [gpuscope_l2_flush_param_1];
	ld.param.u64 	%rd9, [gpuscope_l2_flush_param_2];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	cvt.u64.u32 	%rd1, %r2;
	mul.wide.u32 	%rd10, %r1, %r2;
	mov.u32 	%r3, %tid.x;
	cvt.u64.u32 	%rd11, %r3;
	add.s64 	%rd15, %rd10, %rd11;
	setp.ge.u64 	%p1, %rd15, %rd8;
	@%p1 bra 	$L__BB0_5;

	mov.u32 	%r4, %nctaid.x;
	cvt.u64.u32 	%rd12, %r4;
	mul.lo.s64 	%rd3, %rd12, %rd1;
	cvta.to.global.u64 	%rd4, %rd9;
	mov.f32 	%f11, 0f00000000;

$L__BB0_2:
	shl.b64 	%rd14, %rd15, 4;
	add.s64 	%rd13, %rd7, %rd14;
	// begin inline asm
	ld.global.cg.v4.f32 {%f4,%f5,%f6,%f7}, [%rd13];
	// end inline asm
	add.f32 	%f8, %f4, %f5;
	add.f32 	%f9, %f6, %f8;
	add.f32 	%f10, %f7, %f9;
	add.f32 	%f11, %f11, %f10;
	add.s64 	%rd15, %rd15, %rd3;
	setp.lt.u64 	%p2, %rd15, %rd8;
	@%p2 bra 	$L__BB0_2;

	setp.neu.f32 	%p3, %f11, 0f449A5000;
	@%p3 bra 	$L__BB0_5;

	mov.u32 	%r5, 1150963712;
	st.global.u32 	[%rd4], %r5;

$L__BB0_5:
	ret;

}

)ptx";
  return std::string_view(kPtx, sizeof(kPtx) - 1);
}

}  // namespace gpuscope::cupti
