// The Python frame walk through a fake CPython C API: plain structs for frames, code objects
// and strings, reference counts checked, so that the walk's contract with CPython (who owns
// which reference, when the GIL must be held) is held to without an interpreter.
#include "inject/python_frames.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "inject/call_stacks.h"

namespace gpuscope::inject {
namespace {

struct FakeObject {
  int refs = 1;
};
struct FakeString : FakeObject {
  std::string text;
};
struct FakeCode : FakeObject {
  FakeString filename, qualname;
};
struct FakeFrame : FakeObject {
  FakeCode* code = nullptr;
  int line = 0;
  FakeFrame* back = nullptr;
};

// The interpreter state the fake API reads.
struct FakePython {
  bool initialized = true;
  bool gil = true;
  FakeFrame* current = nullptr;
  int attribute_lookups = 0;
};
FakePython* g_python = nullptr;

int Initialized() { return g_python->initialized ? 1 : 0; }
int GilCheck() { return g_python->gil ? 1 : 0; }
void* CurrentFrame() { return g_python->current; }  // borrowed
void* FrameBack(void* frame) {
  FakeFrame* back = static_cast<FakeFrame*>(frame)->back;
  if (back != nullptr) ++back->refs;
  return back;
}
void* FrameCode(void* frame) {
  FakeCode* code = static_cast<FakeFrame*>(frame)->code;
  ++code->refs;
  return code;
}
int FrameLine(void* frame) { return static_cast<FakeFrame*>(frame)->line; }
void IncRef(void* object) { ++static_cast<FakeObject*>(object)->refs; }
void DecRef(void* object) { --static_cast<FakeObject*>(object)->refs; }
void* GetAttr(void* object, const char* name) {
  ++g_python->attribute_lookups;
  auto* code = static_cast<FakeCode*>(object);
  FakeString* value = std::string(name) == "co_filename"   ? &code->filename
                      : std::string(name) == "co_qualname" ? &code->qualname
                                                           : nullptr;
  if (value != nullptr) ++value->refs;
  return value;
}
const char* Utf8(void* object) { return static_cast<FakeString*>(object)->text.c_str(); }
void ClearError() {}

PythonApi FakeApi() {
  PythonApi api;
  api.initialized = Initialized;
  api.gil_check = GilCheck;
  api.current_frame = CurrentFrame;
  api.frame_back = FrameBack;
  api.frame_code = FrameCode;
  api.frame_line = FrameLine;
  api.incref = IncRef;
  api.decref = DecRef;
  api.get_attr = GetAttr;
  api.utf8 = Utf8;
  api.clear_error = ClearError;
  return api;
}

class PythonFramesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_python = &python_;
    train_.filename.text = "/home/me/train.py";
    train_.qualname.text = "train_step";
    module_.filename.text = "/venv/lib/python3.12/site-packages/torch/nn/modules/module.py";
    module_.qualname.text = "Module._call_impl";
    // innermost: torch's module call at line 1750, called from train.py:42, from train.py:80
    outer_ = {{}, &train_, 80, nullptr};
    inner_user_ = {{}, &train_, 42, &outer_};
    torch_ = {{}, &module_, 1750, &inner_user_};
    python_.current = &torch_;
  }
  void TearDown() override { g_python = nullptr; }

  // No frame given, no name looked up, no reference taken or left behind.
  void ExpectNoWalk() {
    PythonFrameWalker walker(FakeApi());
    PythonFrame frames[8];
    EXPECT_EQ(walker.Walk(frames, 8), 0u);
    EXPECT_EQ(python_.attribute_lookups, 0);
    EXPECT_EQ(torch_.refs, 1);
  }

  FakePython python_;
  FakeCode train_, module_;
  FakeFrame outer_, inner_user_, torch_;
};

TEST_F(PythonFramesTest, WalksInnermostFirstWithFileLineAndFunction) {
  PythonFrameWalker walker(FakeApi());
  PythonFrame frames[8];
  ASSERT_EQ(walker.Walk(frames, 8), 3u);
  EXPECT_EQ(frames[0].code->file, module_.filename.text);
  EXPECT_EQ(frames[0].code->function, "Module._call_impl");
  EXPECT_EQ(frames[0].line, 1750u);
  EXPECT_EQ(frames[1].code->file, "/home/me/train.py");
  EXPECT_EQ(frames[1].code->function, "train_step");
  EXPECT_EQ(frames[1].line, 42u);
  EXPECT_EQ(frames[2].line, 80u);
  EXPECT_EQ(frames[1].code, frames[2].code);  // one code object, one cache entry
  // Every reference the walk took is given back; the cache keeps one per code object.
  EXPECT_EQ(torch_.refs, 1);
  EXPECT_EQ(inner_user_.refs, 1);
  EXPECT_EQ(outer_.refs, 1);
  EXPECT_EQ(train_.refs, 2);
  EXPECT_EQ(module_.refs, 2);
  EXPECT_EQ(train_.filename.refs, 1);
  EXPECT_EQ(walker.cached_code_objects(), 2u);
}

TEST_F(PythonFramesTest, NamesAreFetchedOncePerCodeObject) {
  PythonFrameWalker walker(FakeApi());
  PythonFrame frames[8];
  walker.Walk(frames, 8);
  const int lookups = python_.attribute_lookups;
  EXPECT_EQ(lookups, 4);  // co_filename and co_qualname of two code objects
  inner_user_.line = 43;
  walker.Walk(frames, 8);
  EXPECT_EQ(python_.attribute_lookups, lookups);
  EXPECT_EQ(frames[1].line, 43u);
  EXPECT_EQ(train_.refs, 2);
}

TEST_F(PythonFramesTest, BoundedDepthReleasesTheRest) {
  PythonFrameWalker walker(FakeApi());
  PythonFrame frames[2];
  ASSERT_EQ(walker.Walk(frames, 2), 2u);
  EXPECT_EQ(frames[1].line, 42u);
  EXPECT_EQ(torch_.refs, 1);
  EXPECT_EQ(inner_user_.refs, 1);
  EXPECT_EQ(outer_.refs, 1);
}

TEST_F(PythonFramesTest, WithoutTheGilNothingIsTouched) {
  python_.gil = false;
  ExpectNoWalk();
}

TEST_F(PythonFramesTest, AnInterpreterThatIsFinalisingIsNotWalked) {
  python_.initialized = false;
  ExpectNoWalk();
}

TEST_F(PythonFramesTest, CallStacksTakePythonFramesAndMatchThemToTheCall) {
  CallStacks stacks({}, std::make_unique<PythonFrameWalker>(FakeApi()));
  stacks.Capture(/*correlation_id=*/7);
  stacks.Capture(/*correlation_id=*/8);  // same stack
  inner_user_.line = 44;
  stacks.Capture(/*correlation_id=*/9);
  EXPECT_EQ(stacks.TakeStackId(7), 1u);
  EXPECT_EQ(stacks.TakeStackId(8), 1u);
  EXPECT_EQ(stacks.TakeStackId(9), 2u);
  EXPECT_EQ(stacks.TakeStackId(9), 0u);  // taken once
  std::vector<NewStack> fresh = stacks.TakeNewStacks();
  ASSERT_EQ(fresh.size(), 2u);
  ASSERT_EQ(fresh[0].frames.size(), 3u);
  EXPECT_EQ(fresh[0].frames[1].kind, model::FrameKind::kPython);
  EXPECT_EQ(fresh[0].frames[1].file, "/home/me/train.py");
  EXPECT_EQ(fresh[0].frames[1].function, "train_step");
  EXPECT_EQ(fresh[0].frames[1].line, 42u);
  EXPECT_EQ(fresh[1].frames[1].line, 44u);
  EXPECT_EQ(stacks.dropped(), 0u);
}

TEST_F(PythonFramesTest, WithoutTheGilTheNativeStackIsTaken) {
  python_.gil = false;
  CallStacks stacks({}, std::make_unique<PythonFrameWalker>(FakeApi()));
  stacks.Capture(3);
  ASSERT_EQ(stacks.TakeStackId(3), 1u);
  std::vector<NewStack> fresh = stacks.TakeNewStacks();
  ASSERT_EQ(fresh.size(), 1u);
  ASSERT_FALSE(fresh[0].frames.empty());
  EXPECT_EQ(fresh[0].frames[0].kind, model::FrameKind::kNative);
  EXPECT_NE(fresh[0].frames[0].address, 0u);
}

TEST_F(PythonFramesTest, CallsBeyondTheLimitsAreCountedNotKept) {
  CallStackLimits limits;
  limits.max_waiting_calls = 1;
  CallStacks stacks(limits, std::make_unique<PythonFrameWalker>(FakeApi()));
  stacks.Capture(1);
  stacks.Capture(2);
  EXPECT_EQ(stacks.dropped(), 1u);
  EXPECT_EQ(stacks.TakeStackId(1), 1u);
  EXPECT_EQ(stacks.TakeStackId(2), 0u);
}

TEST(PythonApi, IsIncompleteInAProcessWithoutPython) {
  // This test binary links no libpython.
  EXPECT_FALSE(FindPythonApi().complete());
}

}  // namespace
}  // namespace gpuscope::inject
