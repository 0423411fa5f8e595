#include "inject/python_frames.h"

#include <dlfcn.h>

#include <algorithm>

namespace gpuscope::inject {
namespace {

template <typename Function>
void Find(Function*& slot, const char* name) {
  slot = reinterpret_cast<Function*>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

bool PythonApi::complete() const {
  return initialized != nullptr && gil_check != nullptr && current_frame != nullptr &&
         frame_back != nullptr && frame_code != nullptr && frame_line != nullptr &&
         incref != nullptr && decref != nullptr && get_attr != nullptr && utf8 != nullptr &&
         clear_error != nullptr;
}

PythonApi FindPythonApi() {
  PythonApi api;
  // Py_IsInitialized first: a process that merely has libpython mapped (a plug-in) but never
  // started an interpreter must not be walked.
  Find(api.initialized, "Py_IsInitialized");
  if (api.initialized == nullptr || api.initialized() == 0) return api;
  Find(api.gil_check, "PyGILState_Check");
  Find(api.current_frame, "PyEval_GetFrame");
  Find(api.frame_back, "PyFrame_GetBack");
  Find(api.frame_code, "PyFrame_GetCode");
  Find(api.frame_line, "PyFrame_GetLineNumber");
  Find(api.incref, "Py_IncRef");
  Find(api.decref, "Py_DecRef");
  Find(api.get_attr, "PyObject_GetAttrString");
  Find(api.utf8, "PyUnicode_AsUTF8");
  Find(api.clear_error, "PyErr_Clear");
  Find(api.detached.this_thread_state, "PyGILState_GetThisThreadState");
  Find(api.detached.main_interpreter, "PyInterpreterState_Main");
  Find(api.detached.address_to_line, "PyCode_Addr2Line");
  api.detached.code_type = dlsym(RTLD_DEFAULT, "PyCode_Type");
  api.detached.unicode_type = dlsym(RTLD_DEFAULT, "PyUnicode_Type");
  // Py_Version (3.11+) is the running interpreter's PY_VERSION_HEX.
  if (const auto* version = static_cast<const unsigned long*>(dlsym(RTLD_DEFAULT, "Py_Version"))) {
    api.version = *version;
  }
  return api;
}

PythonFrameWalker::PythonFrameWalker(PythonApi api) : api_(api) {
  if (!api_.detached.complete()) return;
  if (std::optional<DetachedFrameLayout> layout = DetachedFrameLayoutFor(api_.version)) {
    detached_.emplace(*layout, api_.detached);
  }
}

std::size_t PythonFrameWalker::Walk(PythonFrame* out, std::size_t max) {
  // CUDA calls made while the interpreter finalises (a library's atexit handler freeing
  // device memory) find its thread states and frames being freed: no walk then.
  if (max == 0 || api_.initialized() == 0) return 0;
  if (detached_) return WalkDetached(out, max);
  if (api_.gil_check() == 0) return 0;
  void* frame = api_.current_frame();
  if (frame == nullptr) return 0;
  api_.incref(frame);  // borrowed: the walk below releases what it holds
  // The code objects are looked up after the walk, under one lock: they stay alive until
  // then, since every frame walked is running on this thread (which holds the GIL).
  constexpr std::size_t kBatch = 128;
  void* codes[kBatch];
  std::size_t count = 0;
  max = std::min(max, kBatch);
  while (frame != nullptr && count < max) {
    if (void* code = api_.frame_code(frame); code != nullptr) {
      api_.decref(code);
      const int line = api_.frame_line(frame);
      codes[count] = code;
      out[count++].line = line > 0 ? static_cast<std::uint32_t>(line) : 0;
    }
    void* back = api_.frame_back(frame);
    api_.decref(frame);
    frame = back;
  }
  if (frame != nullptr) api_.decref(frame);
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::size_t i = 0; i < count; ++i) out[i].code = CodeOf(codes[i]);
  return count;
}

std::size_t PythonFrameWalker::WalkDetached(PythonFrame* out, std::size_t max) {
  constexpr std::size_t kBatch = 128;
  DetachedFrame frames[kBatch];
  const std::size_t count = detached_->Read(frames, std::min(max, kBatch));
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::size_t i = 0; i < count; ++i) {
    DetachedCode& code = DetachedCodeOf(frames[i].code);
    auto [line, inserted] = code.lines.try_emplace(frames[i].instruction, 0);
    if (inserted) line->second = detached_->LineOf(frames[i]);
    out[i] = PythonFrame{code.code.get(), line->second};
  }
  return count;
}

std::size_t PythonFrameWalker::cached_code_objects() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return codes_.size() + detached_codes_.size();
}

PythonFrameWalker::DetachedCode& PythonFrameWalker::DetachedCodeOf(const void* code) {
  const CodeIdentity identity = detached_->IdentityOf(code);
  auto found = detached_codes_.find(code);
  if (found != detached_codes_.end()) {
    if (found->second.identity == identity) return found->second;
    // The address names another code object now; stacks captured earlier keep the old names.
    retired_codes_.push_back(std::move(found->second.code));
    detached_codes_.erase(found);
  }
  auto named = std::make_unique<PythonCode>();
  named->file = detached_->FileOf(code);
  named->function = detached_->FunctionOf(code);
  return detached_codes_.emplace(code, DetachedCode{identity, std::move(named), {}})
      .first->second;
}

const PythonCode* PythonFrameWalker::CodeOf(void* code) {
  auto found = codes_.find(code);
  if (found != codes_.end()) return found->second.get();
  auto names = std::make_unique<PythonCode>();
  names->file = Text(code, "co_filename");
  names->function = Text(code, "co_qualname");
  if (names->function.empty()) names->function = Text(code, "co_name");
  api_.incref(code);  // kept while cached: the address names this code object only
  return codes_.emplace(code, std::move(names)).first->second.get();
}

std::string PythonFrameWalker::Text(void* object, const char* attribute) {
  void* value = api_.get_attr(object, attribute);
  if (value == nullptr) {
    api_.clear_error();  // AttributeError (co_qualname before 3.11): not the program's error
    return {};
  }
  const char* text = api_.utf8(value);
  std::string result = text != nullptr ? text : "";
  if (text == nullptr) api_.clear_error();
  api_.decref(value);
  return result;
}

}  // namespace gpuscope::inject
