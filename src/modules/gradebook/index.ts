import './gradebook.policy';
import './gradebook.type';
import './gradebook.operations';
