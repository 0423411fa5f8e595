"""The `jit` both stand-in numba.cuda targets share: numba-cuda's signature
(numba_cuda/numba/cuda/decorators.py), recording the options each kernel was compiled with."""


def recording_jit(compiled):
    def jit(func_or_sig=None, device=False, inline="never", link=[], debug=None, opt=None,
            lineinfo=False, cache=False, **kws):
        compiled.append({"debug": debug, "lineinfo": lineinfo})
        if callable(func_or_sig):
            return func_or_sig
        return lambda function: function

    return jit
