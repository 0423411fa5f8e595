// Nsight Compute's kernel filters as `gpuscope profile` applies them, launch by launch.
#include "util/kernel_filter.h"

#include "util/demangle.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuscope {
namespace {

// Itanium names as nvcc emits them: saxpy(long, float, float const*, float*) and a template.
constexpr const char* kSaxpy = "_Z7k_saxpylfPKfPf";
constexpr const char* kConv = "_Z11convolutionIfEvPKT_PS0_i";  // void convolution<float>(...)
constexpr const char* kPlainC = "add_kernel";

KernelFilterSpec Spec(const std::string& name, NameBase base = NameBase::kFunction) {
  KernelFilterSpec spec;
  StatusOr<NameMatcher> matcher = NameMatcher::Parse(name);
  EXPECT_TRUE(matcher.ok()) << matcher.status().message();
  spec.name = *matcher;
  spec.name_base = base;
  return spec;
}

// Which of `launches` are profiled (their indices).
std::vector<int> Profiled(KernelSelector& selector, const std::vector<const char*>& launches) {
  std::vector<int> chosen;
  for (int i = 0; i < static_cast<int>(launches.size()); ++i) {
    LaunchCandidate launch;
    launch.mangled_name = launches[i];
    launch.context_id = 1;
    launch.stream_id = 7;
    if (selector.Decide(launch).profile) chosen.push_back(i);
  }
  return chosen;
}

TEST(KernelFilter, ExactNameMatchesTheFunctionNameByDefault) {
  KernelSelector selector(Spec("k_saxpy"));
  EXPECT_EQ(Profiled(selector, {kSaxpy, kPlainC, kSaxpy}), (std::vector<int>{0, 2}));
}

TEST(KernelFilter, NameBasesSeeDifferentNames) {
  KernelSelector demangled(Spec("regex:float const\\*", NameBase::kDemangled));
  EXPECT_EQ(Profiled(demangled, {kSaxpy, kPlainC}), (std::vector<int>{0}));
  KernelSelector mangled(Spec("_Z7k_saxpylfPKfPf", NameBase::kMangled));
  EXPECT_EQ(Profiled(mangled, {kSaxpy, kPlainC}), (std::vector<int>{0}));
  // The function base of a template keeps its arguments, as ncu's does.
  KernelSelector function(Spec("regex:^convolution<float>$"));
  EXPECT_EQ(Profiled(function, {kConv, kSaxpy}), (std::vector<int>{0}));
  EXPECT_EQ(NameInBase(kPlainC, NameBase::kFunction), "add_kernel");
}

TEST(KernelFilter, FunctionBaseNameKeepsNamespacesAndDropsReturnTypesAndParameters) {
  EXPECT_EQ(FunctionBaseName("saxpy(int, float, float const*, float*)"), "saxpy");
  EXPECT_EQ(FunctionBaseName("void ns::add<int>(int*)"), "ns::add<int>");
  // The space of "(anonymous namespace)" is not a return type's (ncu prints the same name).
  EXPECT_EQ(FunctionBaseName("(anonymous namespace)::k_convolve(float const*, bool)"),
            "(anonymous namespace)::k_convolve");
  EXPECT_EQ(FunctionBaseName("void (anonymous namespace)::k<(int)3>(int)"),
            "(anonymous namespace)::k<(int)3>");
}

TEST(KernelFilter, SkipAndCountCountOnlyMatchingLaunches) {
  KernelFilterSpec spec = Spec("regex:saxpy");
  spec.launch_skip = 1;
  spec.launch_count = 2;
  KernelSelector selector(spec);
  EXPECT_EQ(Profiled(selector, {kPlainC, kSaxpy, kPlainC, kSaxpy, kSaxpy, kSaxpy, kPlainC}),
            (std::vector<int>{3, 4}));
  EXPECT_TRUE(selector.Exhausted());
  EXPECT_EQ(selector.profiled(), 2u);
}

TEST(KernelFilter, DecisionsNumberInvocationsPerNameAndProfilesInOrder) {
  KernelSelector selector(Spec(""));
  LaunchCandidate saxpy{kSaxpy, 1, 7, 0};
  LaunchCandidate plain{kPlainC, 1, 7, 0};
  LaunchDecision a = selector.Decide(saxpy);
  LaunchDecision b = selector.Decide(plain);
  LaunchDecision c = selector.Decide(saxpy);
  EXPECT_EQ(a.invocation, 0u);
  EXPECT_EQ(b.invocation, 0u);
  EXPECT_EQ(c.invocation, 1u);
  EXPECT_EQ(c.profile_index, 2u);
}

TEST(KernelFilter, KernelIdPicksOneInvocationOnOneStream) {
  StatusOr<KernelIdFilter> id = ParseKernelId("1:7:regex:saxpy:1");
  ASSERT_TRUE(id.ok()) << id.status().message();
  KernelFilterSpec spec;
  spec.kernel_id = *id;
  KernelSelector selector(spec);
  LaunchCandidate on7{kSaxpy, 1, 7, 0};
  LaunchCandidate on9{kSaxpy, 1, 9, 0};
  LaunchCandidate unknown_stream{kSaxpy, 1, std::nullopt, 0};
  EXPECT_FALSE(selector.Decide(on7).profile);             // invocation 0
  EXPECT_TRUE(selector.Decide(on7).profile);              // invocation 1
  EXPECT_FALSE(selector.Decide(on9).profile);             // wrong stream
  EXPECT_FALSE(selector.Decide(unknown_stream).profile);  // a stream we could not read
}

TEST(KernelFilter, EmptyKernelIdFieldsMatchAny) {
  StatusOr<KernelIdFilter> id = ParseKernelId("::k_saxpy:");
  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_FALSE(id->context_id.has_value());
  EXPECT_FALSE(id->stream_id.has_value());
  EXPECT_FALSE(id->invocation.has_value());
  EXPECT_TRUE(id->name.Matches("k_saxpy"));
}

TEST(KernelFilter, DevicesFilterLaunchesOfOtherDevices) {
  KernelFilterSpec spec;
  spec.devices = std::set<std::uint32_t>{1};
  KernelSelector selector(spec);
  EXPECT_FALSE(selector.Decide({kSaxpy, 1, 7, 0}).profile);
  EXPECT_TRUE(selector.Decide({kSaxpy, 2, 7, 1}).profile);
}

TEST(KernelFilter, BadInputIsOneLineErrors) {
  StatusOr<NameMatcher> regex = NameMatcher::Parse("regex:(unclosed");
  ASSERT_FALSE(regex.ok());
  EXPECT_NE(regex.status().message().find("not a valid regular expression"), std::string::npos);
  EXPECT_FALSE(ParseKernelId("saxpy").ok());
  EXPECT_FALSE(ParseKernelId("x:7:saxpy:1").ok());
  EXPECT_FALSE(ParseKernelId("1:7:saxpy:first").ok());
  EXPECT_FALSE(ParseNameBase("short").ok());
}

TEST(KernelFilter, SeenNamesAreListedForTheNothingMatchedWarning) {
  KernelSelector selector(Spec("no_such_kernel"));
  EXPECT_TRUE(Profiled(selector, {kSaxpy, kPlainC, kSaxpy}).empty());
  EXPECT_EQ(selector.SeenNames(10), (std::vector<std::string>{"add_kernel", "k_saxpy"}));
}

}  // namespace
}  // namespace gpuscope
