"""Stands in for numba-cuda's numba.cuda (the target Numba 0.61+ redirects to): the same
recording `jit` as the built-in stand-in, and a marker saying which one was imported."""

redirected = True
compiled = []


def jit(func_or_sig=None, device=False, inline="never", link=[], debug=None, opt=None,
        lineinfo=False, cache=False, **kws):
    compiled.append({"debug": debug, "lineinfo": lineinfo})
    if callable(func_or_sig):
        return func_or_sig
    return lambda function: function
