mov(8)          g10<1>F         g2<8,8,1>F                      { align1 1Q };
mul(8)          g11<1>F         g10<8,8,1>F     g3<0,1,0>F      { align1 1Q };
add(8)          g12<1>F         g11<8,8,1>F     0x3f800000F  /* 1F */ { align1 1Q };
cmp.l.f0.0(8)   null<1>F        g12<8,8,1>F     g4<8,8,1>F      { align1 1Q };
(+f0.0) if(8)   JIP: LABEL1           UIP: LABEL0               { align1 1Q };
math inv(8)     g12<1>F         g12<8,8,1>F     null<8,8,1>F    { align1 1Q };
else(8)         JIP: LABEL0           UIP: LABEL0               { align1 1Q };
LABEL1:
mov(8)          g12<1>F         0x0F             /* 0F */       { align1 1Q };
LABEL0:
endif(8)        JIP: LABEL2                                     { align1 1Q };
LABEL2:
mov(8)          g124<1>F        g12<8,8,1>F                     { align1 1Q };
send(8)         null<1>F        g123<8,8,1>F    0x8a080017
                            urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0        { align1 1Q EOT };
