#!/usr/bin/env python3
"""Writes example.bin: the network of example.txt in Kaldi's binary model
format, built byte by byte from the spec (reference sections 4.1-4.3), not by
our writer. Run from this directory: python3 make-example-bin.py"""
import struct

def token(t):          # a token is followed by one space in binary too
    return t.encode() + b" "

def i32(v):            # size byte 4, then little-endian int32
    return b"\x04" + struct.pack("<i", v)

def f32(v):            # size byte 4, then IEEE float
    return b"\x04" + struct.pack("<f", v)

def f64(v):            # size byte 8, then IEEE double
    return b"\x08" + struct.pack("<d", v)

def fmat(rows):        # "FM ", int32 rows, int32 cols, raw row-major floats
    out = token("FM") + i32(len(rows)) + i32(len(rows[0]))
    for r in rows:
        out += b"".join(struct.pack("<f", x) for x in r)
    return out

def fvec(v):           # "FV ", int32 dim, raw floats
    return token("FV") + i32(len(v)) + b"".join(struct.pack("<f", x) for x in v)

config = (b"input-node name=input dim=3\n"
          b"component-node name=affine1 component=affine1 "
          b"input=Append(Offset(input, -1), input)\n"
          b"component-node name=relu1 component=relu1 input=affine1\n"
          b"output-node name=output input=relu1 objective=linear\n")

affine = (token("<NaturalGradientAffineComponent>") +
          token("<MaxChange>") + f32(0.75) +
          token("<LearningRate>") + f32(0.001) +
          token("<LinearParams>") +
          fmat([[0.1, -0.3, 0.2, 0.05, 0.4, -0.1],
                [0.2, 0.1, -0.2, 0.3, -0.05, 0.1]]) +
          token("<BiasParams>") + fvec([0.5, -1.2]) +
          token("<RankIn>") + i32(3) + token("<RankOut>") + i32(1) +
          token("<UpdatePeriod>") + i32(4) +
          token("<NumSamplesHistory>") + f32(2000) +
          token("<Alpha>") + f32(4) +
          token("</NaturalGradientAffineComponent>"))

relu = (token("<RectifiedLinearComponent>") + token("<Dim>") + i32(2) +
        token("<ValueAvg>") + fvec([]) + token("<DerivAvg>") + fvec([]) +
        token("<Count>") + f64(0) + token("<OderivRms>") + fvec([]) +
        token("<OderivCount>") + f64(0) +
        token("<NumDimsSelfRepaired>") + f64(0) +
        token("<NumDimsProcessed>") + f64(0) +
        token("</RectifiedLinearComponent>"))

data = (b"\x00B" + token("<Nnet3>") + b"\n" + config + b"\n" +
        token("<NumComponents>") + i32(2) +
        token("<ComponentName>") + token("affine1") + affine +
        token("<ComponentName>") + token("relu1") + relu +
        token("</Nnet3>"))

with open("example.bin", "wb") as f:
    f.write(data)
