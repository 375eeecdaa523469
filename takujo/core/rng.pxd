# Types for the compiled build only (setup.py): SplitMix64 in C 64-bit unsigned integers. The
# pure-Python module computes the same values with big integers masked to 64 bits.
cimport cython


@cython.locals(z=cython.ulonglong, m=cython.ulonglong, a=cython.ulonglong, b=cython.ulonglong)
cpdef unsigned long long _mix(unsigned long long s)


cdef class Rng:
    cdef public unsigned long long state

    @cython.locals(g=cython.ulonglong, m=cython.ulonglong, s=cython.ulonglong)
    cpdef unsigned long long next64(self)

    @cython.locals(k=cython.ulonglong, m=cython.ulonglong, limit=cython.ulonglong, x=cython.ulonglong)
    cpdef below(self, n)
