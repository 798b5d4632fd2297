"""DLPack pointers in and out of PyCapsules through ctypes, as a C extension would pass them
(tests/dlpack_numpy.py and tests/dlpack_gpu.py)."""
import ctypes

_new = ctypes.pythonapi.PyCapsule_New
_new.restype = ctypes.py_object
_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_set_name = ctypes.pythonapi.PyCapsule_SetName
_set_name.restype = ctypes.c_int
_set_name.argtypes = [ctypes.py_object, ctypes.c_char_p]


def wrap(pointer):
    """A DLManagedTensorVersioned pointer as a "dltensor_versioned" capsule. No destructor: the
    consumer renames it once consumed and calls the tensor's deleter itself."""
    return _new(pointer, b"dltensor_versioned", None)


def take(capsule):
    """The pointer of a producer's "dltensor_versioned" capsule, renamed as consumed: the taker now
    owns the tensor and calls its deleter."""
    pointer = _get_pointer(capsule, b"dltensor_versioned")
    _set_name(capsule, b"used_dltensor_versioned")
    return pointer
