import './grading-category.policy';
import './grading-category.type';
import './grading-category.queries';
import './grading-category.mutations';
