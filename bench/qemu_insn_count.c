/* A minimal TCG plugin: counts the guest instructions executed (QEMU 7.2 plugin API v1). The
 * declarations are the few the API defines; Debian's qemu ships no plugin header. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                                  qemu_plugin_vcpu_tb_trans_cb_t cb);
extern void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb,
                                                     enum qemu_plugin_op op, void* ptr,
                                                     uint64_t imm);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
                                           void* userdata);
__attribute__((visibility("default"))) int qemu_plugin_version = 1;
static uint64_t count;
static void trans(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &count,
                                           qemu_plugin_tb_n_insns(tb));
}
static void done(qemu_plugin_id_t id, void* p) {
  (void)id;
  (void)p;
  fprintf(stderr, "insns: %" PRIu64 "\n", count);
}
__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t* info, int argc,
                                                               char** argv) {
  (void)info;
  (void)argc;
  (void)argv;
  qemu_plugin_register_vcpu_tb_trans_cb(id, trans);
  qemu_plugin_register_atexit_cb(id, done, NULL);
  return 0;
}
