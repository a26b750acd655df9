//===- ProblemIOTest.cpp - CSV reading/writing and the generator ----------===//

#include "cs349/Planner/ProblemIO.h"

#include <gtest/gtest.h>

using namespace cs349::planner;

TEST(Csv, ParsesColumnsInAnyOrder) {
  CsvProblem csv;
  auto err = parseProblemCsv("size,upper,note,id,lower\r\n"
                             "4,3,x,b1,0\n"
                             "\n"
                             "8, 9 ,y,7,3\n",
                             csv);
  ASSERT_FALSE(err.has_value()) << err->message;
  ASSERT_EQ(csv.problem.buffers.size(), 2u);
  EXPECT_EQ(csv.problem.buffers[0].id, 0); // non-integer id: row number
  EXPECT_EQ(csv.problem.buffers[0].start, 0);
  EXPECT_EQ(csv.problem.buffers[0].end, 3);
  EXPECT_EQ(csv.problem.buffers[0].size, 4u);
  EXPECT_EQ(csv.problem.buffers[1].id, 7);
  EXPECT_EQ(csv.problem.buffers[1].start, 3);
  EXPECT_EQ(csv.problem.buffers[1].end, 9);
  EXPECT_EQ(csv.problem.buffers[1].size, 8u);
  EXPECT_EQ(csv.lines, (std::vector<size_t>{2, 4}));
  Plan pl{{0, 4}, 12};
  EXPECT_EQ(writeSolutionCsv(csv, pl), "size,upper,note,id,lower,offset\n"
                                       "4,3,x,b1,0,0\n"
                                       "8,9,y,7,3,4\n");
}

TEST(Csv, HeaderOnlyIsAnEmptyProblem) {
  CsvProblem csv;
  EXPECT_FALSE(parseProblemCsv("id,lower,upper,size\n", csv).has_value());
  EXPECT_TRUE(csv.problem.buffers.empty());
}

static CsvError parseError(const char *text) {
  CsvProblem csv;
  auto err = parseProblemCsv(text, csv);
  EXPECT_TRUE(err.has_value()) << text;
  return err.value_or(CsvError{});
}

TEST(Csv, Errors) {
  CsvError e = parseError("");
  EXPECT_EQ(e.line, 1u);
  EXPECT_NE(e.message.find("empty file"), std::string::npos);

  e = parseError("id,lower,size\n0,1,2\n");
  EXPECT_EQ(e.line, 1u);
  EXPECT_NE(e.message.find("missing column 'upper'"), std::string::npos);

  e = parseError("id,lower,upper,size\n0,0,1,2\n1,0,x,2\n");
  EXPECT_EQ(e.line, 3u);
  EXPECT_NE(e.message.find("'upper' is not an integer"), std::string::npos);

  e = parseError("id,lower,upper,size\n0,0,1,1.5\n");
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.message.find("'size' is not an integer"), std::string::npos);

  e = parseError("id,lower,upper,size\n0,0,1,-4\n");
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.message.find("negative size"), std::string::npos);

  e = parseError("id,lower,upper,size\n0,5,5,4\n");
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.message.find("lower 5 >= upper 5"), std::string::npos);

  e = parseError("id,lower,upper,size\na,0,1,4\n\nb,0,1,4\na,2,3,4\n");
  EXPECT_EQ(e.line, 5u);
  EXPECT_NE(e.message.find("duplicate id 'a' (first on line 2)"),
            std::string::npos);

  e = parseError("id,lower,upper,size\n0,0,1\n");
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.message.find("expected 4 fields, got 3"), std::string::npos);

  e = parseError("id,lower,upper,size\n0,0,99999999999999999999,1\n");
  EXPECT_NE(e.message.find("not an integer"), std::string::npos);
}

TEST(Generator, DeterministicAndValid) {
  Problem a = generateProblem(1000, 7), b = generateProblem(1000, 7),
          c = generateProblem(1000, 8);
  ASSERT_EQ(a.buffers.size(), 1000u);
  bool same = true, differ = false;
  for (size_t i = 0; i < 1000; ++i) {
    const Buffer &x = a.buffers[i], &y = b.buffers[i], &z = c.buffers[i];
    same &= x.start == y.start && x.end == y.end && x.size == y.size;
    differ |= x.end != z.end || x.size != z.size;
    EXPECT_LT(x.start, x.end);
    EXPECT_GT(x.size, 0u);
    EXPECT_EQ(x.size % 64, 0u);
  }
  EXPECT_TRUE(same);
  EXPECT_TRUE(differ);
  // Round trip through CSV.
  CsvProblem csv;
  ASSERT_FALSE(parseProblemCsv(writeProblemCsv(a), csv).has_value());
  ASSERT_EQ(csv.problem.buffers.size(), 1000u);
  EXPECT_EQ(csv.problem.buffers[17].size, a.buffers[17].size);
}
