mov(8)          g10<1>UW        0x76543210V                     { align1 1Q };
mov(8)          g13<1>UD        g10<8,8,1>UW                    { align1 1Q };
shl(1)          g11<1>UD        g0.1<0,1,0>UD   0x00000003UD    { align1 WE_all 1N };
add(8)          g12<1>UD        g13<8,8,1>UD    g11<0,1,0>UD    { align1 1Q };
shl(8)          g2<1>UD         g12<8,8,1>UD    0x00000002UD    { align1 1Q };
mul(8)          g3<1>UD         g12<8,8,1>UD    0x00000003UD    { align1 1Q };
send(8)         null<1>UW       g2<8,8,1>UD     0x04026e00
                            dp data 1 MsgDesc: ( DC untyped surface write, Surface = 0, SIMD8, Mask = 0xe) mlen 2 rlen 0 { align1 1Q };
mov(8)          g127<1>UD       g0<8,8,1>UD                     { align1 WE_all 1Q };
send(8)         null<1>UW       g127<8,8,1>UD   0x82000010
                            thread_spawner MsgDesc: mlen 1 rlen 0           { align1 WE_all 1Q EOT };
