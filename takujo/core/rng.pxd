# Types for the compiled build only (setup.py): SplitMix64's mixing in C 64-bit integers.
cimport cython


@cython.locals(z=cython.ulonglong, m=cython.ulonglong, a=cython.ulonglong, b=cython.ulonglong)
cpdef unsigned long long _mix(unsigned long long s)
