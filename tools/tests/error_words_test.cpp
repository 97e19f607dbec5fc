// The tools' words for OS errors on Linux (tools::os_error_text): glibc's, whatever C library
// the tool was linked with, held here to the strerror of the glibc the test runs on.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "../common/posix/error_words.hpp"
#include "../common/system.hpp"

namespace {

TEST(ErrorWords, AreGlibcsOwn) {
#ifndef __GLIBC__
  GTEST_SKIP() << "no glibc here to compare with";
#else
  int worded = 0;
  for (int error = 0; error < 200; ++error) {
    SCOPED_TRACE(error);
    const std::string glibc = std::strerror(error);
    EXPECT_EQ(tools::os_error_text(error), glibc);
    if (const char* listed = tools::glibc_error_words(error)) {
      EXPECT_EQ(listed, glibc);
      ++worded;
    }
  }
  // Every value glibc has words for, Linux's 1 to 133 but the two it never assigned (41, 58).
  EXPECT_EQ(worded, 132);
#endif
}

TEST(ErrorWords, TheOnesTheToolsMeetMostAreGlibcs) {
  EXPECT_EQ(tools::os_error_text(ENOENT), "No such file or directory");
  EXPECT_EQ(tools::os_error_text(ENAMETOOLONG), "File name too long");
  EXPECT_EQ(tools::os_error_text(ELOOP), "Too many levels of symbolic links");
  EXPECT_EQ(tools::os_error_text(EIO), "Input/output error");
  EXPECT_EQ(tools::rust_os_error(EISDIR), "Is a directory (os error 21)");
}

}  // namespace
