#include "store/string_interner.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace gpuscope::store {
namespace {

TEST(StringInterner, AssignsDenseIdsOncePerName) {
  StringInterner names;
  auto a = names.Intern("cudaMalloc");
  auto b = names.Intern("cudaFree");
  auto again = names.Intern("cudaMalloc");
  EXPECT_EQ(a.id, 1u);
  EXPECT_TRUE(a.inserted);
  EXPECT_EQ(b.id, 2u);
  EXPECT_TRUE(b.inserted);
  EXPECT_EQ(again.id, 1u);
  EXPECT_FALSE(again.inserted);
  EXPECT_EQ(names.size(), 2u);
  EXPECT_EQ(names.text(2), "cudaFree");
}

// The same text through different pointers is one name.
TEST(StringInterner, EqualTextAtDifferentAddressesIsOneName) {
  StringInterner names;
  std::string first = "_Z6vecAddPKfS0_Pfi";
  std::string second = first;
  EXPECT_EQ(names.Intern(first).id, names.Intern(second).id);
  EXPECT_EQ(names.size(), 1u);
}

// CUPTI may free a name and reuse the memory for another: the pointer cache must notice.
TEST(StringInterner, ReusedBufferWithNewTextIsANewName) {
  StringInterner names;
  char buffer[32];
  std::strcpy(buffer, "kernel_a");
  auto a = names.Intern(std::string_view(buffer));
  std::strcpy(buffer, "kernel_b");  // same address, same length, other text
  auto b = names.Intern(std::string_view(buffer));
  EXPECT_NE(a.id, b.id);
  EXPECT_TRUE(b.inserted);
  std::strcpy(buffer, "kernel_a");
  EXPECT_EQ(names.Intern(std::string_view(buffer)).id, a.id);
  std::strcpy(buffer, "kernel_ab");  // same address, longer
  EXPECT_TRUE(names.Intern(std::string_view(buffer)).inserted);
}

TEST(StringInterner, EmptyAndManyNames) {
  StringInterner names;
  EXPECT_EQ(names.Intern("").id, 1u);
  EXPECT_FALSE(names.Intern(std::string_view()).inserted);
  for (int i = 0; i < 10000; ++i) names.Intern("name " + std::to_string(i));
  EXPECT_EQ(names.size(), 10001u);
  // Earlier views stay valid while storage grows.
  EXPECT_EQ(names.text(2), "name 0");
  EXPECT_EQ(names.Intern("name 9999").id, 10001u);
}

}  // namespace
}  // namespace gpuscope::store
