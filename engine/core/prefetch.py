"""A hint to the processor that an array's element will be read soon (LLVM's prefetch).

A TYPE block's sites lie all over the corpus, and each reads a few arrays far apart; once a
model knows where a site is (while gathering its block) it can ask for those lines, so that
they arrive while it works on the sites before. A prefetch never faults and changes nothing
but the caches: an index past the array's end is harmless.
"""
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def prefetch(typingctx, array, index):
    """Ask for the cache line holding array[index] (for reading, kept in every cache level).

    Parameters
    ----------
    array : a 1-D array of any dtype
    index : int
    """
    if not isinstance(array, types.Array) or array.ndim != 1 or not isinstance(index,
                                                                               types.Integer):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0])
        offset = builder.mul(context.cast(builder, args[1], signature.args[1], types.intp),
                             cgutils.unpack_tuple(builder, data.strides, 1)[0])
        address = builder.gep(builder.bitcast(data.data, cgutils.voidptr_t), [offset])
        i32 = ir.IntType(32)
        hint = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32]),
            "llvm.prefetch.p0")
        builder.call(hint, [address, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen
