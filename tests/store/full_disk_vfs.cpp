#include "full_disk_vfs.h"


namespace gpuscope::store::test {

namespace {

struct ShimFile {
  sqlite3_file base;  // first: SQLite sees a sqlite3_file
  FullDiskVfs* disk;
  sqlite3_file* real;  // the default VFS's file, in the bytes after this struct
};

sqlite3_file* Real(sqlite3_file* file) { return reinterpret_cast<ShimFile*>(file)->real; }
FullDiskVfs* Disk(sqlite3_file* file) { return reinterpret_cast<ShimFile*>(file)->disk; }

sqlite3_vfs* RealVfs(sqlite3_vfs* vfs) { return static_cast<FullDiskVfs*>(vfs->pAppData)->real(); }

sqlite3_int64 SizeOf(sqlite3_file* real) {
  sqlite3_int64 size = 0;
  real->pMethods->xFileSize(real, &size);
  return size;
}

int Close(sqlite3_file* f) { return Real(f)->pMethods->xClose(Real(f)); }
int Read(sqlite3_file* f, void* data, int amount, sqlite3_int64 offset) {
  return Real(f)->pMethods->xRead(Real(f), data, amount, offset);
}
int Write(sqlite3_file* f, const void* data, int amount, sqlite3_int64 offset) {
  const sqlite3_int64 size = SizeOf(Real(f));
  const sqlite3_int64 end = offset + amount;
  if (end > size && !Disk(f)->Allocate(static_cast<std::uint64_t>(end - size))) return SQLITE_FULL;
  return Real(f)->pMethods->xWrite(Real(f), data, amount, offset);
}
int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  const sqlite3_int64 before = SizeOf(Real(f));
  if (size > before && !Disk(f)->Allocate(static_cast<std::uint64_t>(size - before))) {
    return SQLITE_FULL;
  }
  int rc = Real(f)->pMethods->xTruncate(Real(f), size);
  if (rc == SQLITE_OK && size < before) Disk(f)->GiveBack(static_cast<std::uint64_t>(before - size));
  return rc;
}
int Sync(sqlite3_file* f, int flags) { return Real(f)->pMethods->xSync(Real(f), flags); }
int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  return Real(f)->pMethods->xFileSize(Real(f), size);
}
int Lock(sqlite3_file* f, int level) { return Real(f)->pMethods->xLock(Real(f), level); }
int Unlock(sqlite3_file* f, int level) { return Real(f)->pMethods->xUnlock(Real(f), level); }
int CheckReservedLock(sqlite3_file* f, int* out) {
  return Real(f)->pMethods->xCheckReservedLock(Real(f), out);
}
int FileControl(sqlite3_file* f, int op, void* arg) {
  return Real(f)->pMethods->xFileControl(Real(f), op, arg);
}
int SectorSize(sqlite3_file* f) { return Real(f)->pMethods->xSectorSize(Real(f)); }
int DeviceCharacteristics(sqlite3_file* f) {
  return Real(f)->pMethods->xDeviceCharacteristics(Real(f));
}
int ShmMap(sqlite3_file* f, int page, int size, int extend, void volatile** out) {
  return Real(f)->pMethods->xShmMap(Real(f), page, size, extend, out);
}
int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
  return Real(f)->pMethods->xShmLock(Real(f), offset, n, flags);
}
void ShmBarrier(sqlite3_file* f) { Real(f)->pMethods->xShmBarrier(Real(f)); }
int ShmUnmap(sqlite3_file* f, int delete_flag) {
  return Real(f)->pMethods->xShmUnmap(Real(f), delete_flag);
}
int Fetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
  return Real(f)->pMethods->xFetch(Real(f), offset, amount, out);
}
int Unfetch(sqlite3_file* f, sqlite3_int64 offset, void* p) {
  return Real(f)->pMethods->xUnfetch(Real(f), offset, p);
}

// Version 2 (shared memory for WAL); memory mapping (xFetch) is off by default, and the
// default VFS's methods serve it if asked.
const sqlite3_io_methods kMethods = {
    3,          Close,      Read,     Write,      Truncate,   Sync,     FileSize,
    Lock,       Unlock,     CheckReservedLock,    FileControl,          SectorSize,
    DeviceCharacteristics,  ShmMap,   ShmLock,    ShmBarrier, ShmUnmap, Fetch,
    Unfetch};

int Open(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  auto* disk = static_cast<FullDiskVfs*>(vfs->pAppData);
  auto* shim = reinterpret_cast<ShimFile*>(file);
  sqlite3_vfs* real_vfs = disk->real();
  shim->disk = disk;
  shim->real = reinterpret_cast<sqlite3_file*>(shim + 1);
  shim->base.pMethods = nullptr;
  int rc = real_vfs->xOpen(real_vfs, name, shim->real, flags, out_flags);
  if (shim->real->pMethods != nullptr) shim->base.pMethods = &kMethods;
  return rc;
}

int Delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  sqlite3_vfs* real = RealVfs(vfs);
  // What the file held goes back to the disk.
  sqlite3_file* probe = static_cast<sqlite3_file*>(sqlite3_malloc(real->szOsFile));
  int out = 0;
  if (probe != nullptr &&
      real->xOpen(real, name, probe, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &out) == SQLITE_OK) {
    static_cast<FullDiskVfs*>(vfs->pAppData)->GiveBack(static_cast<std::uint64_t>(SizeOf(probe)));
    probe->pMethods->xClose(probe);
  }
  sqlite3_free(probe);
  return real->xDelete(real, name, sync_dir);
}
int Access(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
  return RealVfs(vfs)->xAccess(RealVfs(vfs), name, flags, out);
}
int FullPathname(sqlite3_vfs* vfs, const char* name, int size, char* out) {
  return RealVfs(vfs)->xFullPathname(RealVfs(vfs), name, size, out);
}
void* DlOpen(sqlite3_vfs* vfs, const char* name) { return RealVfs(vfs)->xDlOpen(RealVfs(vfs), name); }
void DlError(sqlite3_vfs* vfs, int n, char* out) { RealVfs(vfs)->xDlError(RealVfs(vfs), n, out); }
void (*DlSym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
  return RealVfs(vfs)->xDlSym(RealVfs(vfs), handle, symbol);
}
void DlClose(sqlite3_vfs* vfs, void* handle) { RealVfs(vfs)->xDlClose(RealVfs(vfs), handle); }
int Randomness(sqlite3_vfs* vfs, int n, char* out) {
  return RealVfs(vfs)->xRandomness(RealVfs(vfs), n, out);
}
int Sleep(sqlite3_vfs* vfs, int us) { return RealVfs(vfs)->xSleep(RealVfs(vfs), us); }
int CurrentTime(sqlite3_vfs* vfs, double* out) {
  return RealVfs(vfs)->xCurrentTime(RealVfs(vfs), out);
}
int GetLastError(sqlite3_vfs* vfs, int n, char* out) {
  return RealVfs(vfs)->xGetLastError(RealVfs(vfs), n, out);
}
int CurrentTimeInt64(sqlite3_vfs* vfs, sqlite3_int64* out) {
  return RealVfs(vfs)->xCurrentTimeInt64(RealVfs(vfs), out);
}

}  // namespace

FullDiskVfs::FullDiskVfs(std::uint64_t free_bytes, std::uint64_t reserve_bytes)
    : free_(free_bytes), reserve_(reserve_bytes) {
  real_ = sqlite3_vfs_find(nullptr);
  vfs_.iVersion = 2;
  vfs_.szOsFile = static_cast<int>(sizeof(ShimFile)) + real_->szOsFile;
  vfs_.mxPathname = real_->mxPathname;
  vfs_.zName = "gpuscope-full-disk";
  vfs_.pAppData = this;
  vfs_.xOpen = Open;
  vfs_.xDelete = Delete;
  vfs_.xAccess = Access;
  vfs_.xFullPathname = FullPathname;
  vfs_.xDlOpen = DlOpen;
  vfs_.xDlError = DlError;
  vfs_.xDlSym = DlSym;
  vfs_.xDlClose = DlClose;
  vfs_.xRandomness = Randomness;
  vfs_.xSleep = Sleep;
  vfs_.xCurrentTime = CurrentTime;
  vfs_.xGetLastError = GetLastError;
  vfs_.xCurrentTimeInt64 = CurrentTimeInt64;
  sqlite3_vfs_register(&vfs_, /*makeDflt=*/1);
}

FullDiskVfs::~FullDiskVfs() {
  sqlite3_vfs_unregister(&vfs_);
  sqlite3_vfs_register(real_, /*makeDflt=*/1);
}

bool FullDiskVfs::Allocate(std::uint64_t bytes) {
  if (bytes <= free_) {
    free_ -= bytes;
    return true;
  }
  if (refused_++ == 0) free_ += reserve_;  // the writer gives its reserve back now
  return false;
}

}  // namespace gpuscope::store::test
