# Cross build for 64-bit RISC-V Linux with clang (Debian's clang-14: GCC 12 has no RVV
# intrinsics or vector code generation), on the headers, libraries and binutils of Debian's
# g++-riscv64-linux-gnu. Test programs run under qemu-user through CMake's cross-compiling
# emulator; QEMU_CPU chooses the CPU model (scripts/test runs the suite at VLEN 128 and 256).
include("${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake")
fastblake_debian_cross(riscv64 riscv64-linux-gnu)
set(CMAKE_C_COMPILER clang)
set(CMAKE_CXX_COMPILER clang++)
set(CMAKE_C_COMPILER_TARGET riscv64-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET riscv64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/qemu-run.sh" qemu-riscv64
    "rv64,v=true,vlen=128,vext_spec=v1.0" /usr/riscv64-linux-gnu)
set(FASTBLAKE_QEMU_CPU_WITH "rv64,v=true,vlen=128,vext_spec=v1.0")
set(FASTBLAKE_QEMU_CPU_WITHOUT rv64)
